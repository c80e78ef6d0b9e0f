package toolselect

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// Order is how the list is sorted.
type Order int

const (
	// ByServer groups the tools under their server, in the Source's
	// order.
	ByServer Order = iota
	// ByCost lists the costliest first, each named "server › tool".
	ByCost
)

// LoadedMsg carries ToolChoices.
type LoadedMsg struct {
	choices Choices
	err     error
}

// AppliedMsg carries ApplyTools to the selector.
type AppliedMsg struct {
	off       int
	asDefault bool
	err       error
}

// ChosenMsg is what the selector hands the root once a selection is
// applied, as it closes: how many tools are off, and whether new
// conversations start so too.
type ChosenMsg struct {
	Off       int
	AsDefault bool
}

// Pane is the selector, a kit.Modal.
type Pane struct {
	common kit.Common
	keys   KeyMap
	src    Source
	window int
	reason string

	order   Order
	loaded  bool
	choices Choices
	on      map[string]bool
	filter  string
	visible []int // indexes into choices.Tools, in display order
	cursor  int   // index into visible
	offset  int   // first row shown
	saving  bool
	err     string
}

// New returns the selector over src for a model with window tokens, in
// order; reason is one line saying why it opened ("" for none).
func New(c kit.Common, keys KeyMap, src Source, window int, order Order, reason string) Pane {
	p := Pane{common: c, keys: keys, src: src, window: window, order: order, reason: reason}
	p.syncKeys()
	return p
}

// WithChoices returns the selector with choices already loaded (the root
// loaded them to decide to open it).
func (p Pane) WithChoices(c Choices) Pane {
	p.choices, p.loaded = c, true
	p.on = make(map[string]bool, len(c.Tools))
	for _, t := range c.Tools {
		p.on[t.Identity] = t.On
	}
	p.refilter()
	p.syncKeys()
	return p
}

// Load is the Cmd that reads src's choices for window.
func Load(src Source, window int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := src.ToolChoices(ctx, window)
		return LoadedMsg{choices: c, err: err}
	}
}

// Choices is what a LoadedMsg carries, and its error.
func (m LoadedMsg) Choices() (Choices, error) { return m.choices, m.err }

// Init implements kit.Modal.
func (p Pane) Init() tea.Cmd {
	if p.loaded {
		return nil
	}
	return Load(p.src, p.window)
}

// KeyGrace implements kit.Modal: turning tools off grants nothing, and a
// tool switched on still asks as before.
func (p Pane) KeyGrace() time.Duration { return 0 }

// SetSize implements kit.Modal.
func (p Pane) SetSize(width, height int) kit.Modal {
	p.common = p.common.Sized(width, height)
	p.clamp()
	return p
}

// ShortHelp implements help.KeyMap.
func (p Pane) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Toggle, k.All, k.Order, k.Apply, k.AsDefault, k.Close}
}

// FullHelp implements help.KeyMap.
func (p Pane) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Toggle, k.All, k.Order, k.Erase}, {k.Apply, k.AsDefault, k.Close}}
}

// Update implements kit.Modal.
func (p Pane) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p Pane) handle(msg tea.Msg) (Pane, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		if msg.err != nil {
			p.err = kit.Sentence(msg.err)
			return p, nil, nil
		}
		return p.WithChoices(msg.choices), nil, nil
	case AppliedMsg:
		p.saving = false
		if msg.err != nil {
			p.err = kit.Sentence(msg.err)
			return p, nil, nil
		}
		return p, kit.CloseModal{}, kit.DeliverMsg(ChosenMsg{Off: msg.off, AsDefault: msg.asDefault})
	case tea.KeyMsg:
		return p.key(msg)
	}
	return p, nil, nil
}

func (p Pane) key(msg tea.KeyMsg) (Pane, kit.Action, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Close):
		return p, kit.CloseModal{}, nil
	case p.saving || !p.loaded:
		return p, nil, nil
	case key.Matches(msg, k.Up):
		p.cursor--
	case key.Matches(msg, k.Down):
		p.cursor++
	case key.Matches(msg, k.PageUp):
		p.cursor -= p.rows()
	case key.Matches(msg, k.PageDown):
		p.cursor += p.rows()
	case key.Matches(msg, k.Toggle):
		if i, ok := p.current(); ok {
			id := p.choices.Tools[i].Identity
			p.on = cloneSet(p.on)
			p.on[id] = !p.on[id]
		}
	case key.Matches(msg, k.All):
		p.switchAll()
	case key.Matches(msg, k.Order):
		p.order = 1 - p.order
		p.refilter()
	case key.Matches(msg, k.Apply), key.Matches(msg, k.AsDefault):
		return p.apply(key.Matches(msg, k.AsDefault))
	case key.Matches(msg, k.Erase):
		if r := []rune(p.filter); len(r) > 0 {
			p.filter = string(r[:len(r)-1])
			p.refilter()
		}
	case msg.Type == tea.KeyRunes && !msg.Paste:
		p.filter += string(msg.Runes)
		p.refilter()
	}
	p.clamp()
	return p, nil, nil
}

// switchAll turns every tool shown off when one of them is on, else on:
// with a filter, a whole server's catalog in one key.
func (p *Pane) switchAll() {
	anyOn := false
	for _, i := range p.visible {
		anyOn = anyOn || p.on[p.choices.Tools[i].Identity]
	}
	p.on = cloneSet(p.on)
	for _, i := range p.visible {
		p.on[p.choices.Tools[i].Identity] = !anyOn
	}
}

// apply asks the Source to apply the selection.
func (p Pane) apply(asDefault bool) (Pane, kit.Action, tea.Cmd) {
	var all, off []string
	for _, t := range p.choices.Tools {
		all = append(all, t.Identity)
		if !p.on[t.Identity] {
			off = append(off, t.Identity)
		}
	}
	p.saving, p.err = true, ""
	src := p.src
	return p, nil, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := src.ApplyTools(ctx, all, off, asDefault)
		return AppliedMsg{off: len(off), asDefault: asDefault, err: err}
	}
}

// refilter computes the visible rows: the tools whose server or name holds
// the filter (case-folded), in the order chosen.
func (p *Pane) refilter() {
	f := strings.ToLower(p.filter)
	p.visible = p.visible[:0:0]
	for i, t := range p.choices.Tools {
		if f == "" || strings.Contains(strings.ToLower(t.Server+" "+t.Name), f) {
			p.visible = append(p.visible, i)
		}
	}
	tools := p.choices.Tools
	if p.order == ByCost {
		slices.SortStableFunc(p.visible, func(a, b int) int {
			return cmp.Or(cmp.Compare(tools[b].Tokens, tools[a].Tokens), strings.Compare(tools[a].Identity, tools[b].Identity))
		})
	} else {
		// Grouped: servers in the order they first appear.
		first := map[string]int{}
		for i, t := range tools {
			if _, ok := first[t.Server]; !ok {
				first[t.Server] = i
			}
		}
		slices.SortStableFunc(p.visible, func(a, b int) int { return cmp.Compare(first[tools[a].Server], first[tools[b].Server]) })
	}
	p.clamp()
}

// current is the tool under the cursor.
func (p Pane) current() (int, bool) {
	if p.cursor < 0 || p.cursor >= len(p.visible) {
		return 0, false
	}
	return p.visible[p.cursor], true
}

// clamp keeps the cursor on a row and the row on screen.
func (p *Pane) clamp() {
	p.cursor = max(min(p.cursor, len(p.visible)-1), 0)
	rows := p.rows()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+rows {
		p.offset = p.cursor - rows + 1
	}
	p.offset = max(min(p.offset, len(p.visible)-rows), 0)
}

func (p *Pane) syncKeys() {
	k := &p.keys
	ready := p.loaded && !p.saving
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Toggle, &k.All, &k.Order, &k.Apply, &k.AsDefault} {
		b.SetEnabled(ready)
	}
	k.Erase.SetEnabled(ready && p.filter != "")
	if p.order == ByCost {
		k.Order.SetHelp("tab", "by server")
	} else {
		k.Order.SetHelp("tab", "by cost")
	}
}

func cloneSet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Filter is what the person typed.
func (p Pane) Filter() string { return p.filter }

// Order is the order shown.
func (p Pane) Order() Order { return p.order }

// On reports whether identity is switched on in the pane.
func (p Pane) On(identity string) bool { return p.on[identity] }
