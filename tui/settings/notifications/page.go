package notifications

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// Page is the Notifications page: the four levels, the one in force
// marked, the cursor on one; enter chooses it.
type Page struct {
	kit.PageFrame
	kit.Loads
	common kit.Common
	keys   KeyMap
	b      Backend

	state   State
	cursor  int
	setting string // the level being set, "" when none
}

// New returns the page over b (nil: not available).
func New(c kit.Common, keys KeyMap, b Backend) Page {
	p := Page{common: c, keys: keys, b: b}
	p.syncKeys()
	return p
}

// Title implements settings.Page.
func (p Page) Title() string { return "Notify" }

// ShortHelp implements help.KeyMap.
func (p Page) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Up, k.Down, k.Choose, k.Close}
}

// FullHelp implements help.KeyMap.
func (p Page) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down}, {k.Choose, k.Close}}
}

// SetSize implements settings.Page.
func (p Page) SetSize(width, height int) settings.Page {
	p.Resize(width, height)
	return p
}

// Focus implements settings.Page: it loads the settings.
func (p Page) Focus() (settings.Page, tea.Cmd) {
	p.Active = true
	if p.b == nil {
		return p, nil
	}
	return p, load(p.b, p.Begin())
}

// Blur implements settings.Page.
func (p Page) Blur() settings.Page {
	p.Active = false
	return p
}

// Update implements settings.Page.
func (p Page) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p Page) handle(msg tea.Msg) (Page, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		if p.Settle(msg.seq, msg.err) {
			p.state = msg.state
			p.cursor = max(levelIndex(msg.state.Level), 0)
		}
	case SetMsg:
		if p.setting != msg.level {
			return p, nil, nil
		}
		p.setting = ""
		if msg.err == nil {
			p.state.Level = msg.level
		}
		p.Report(msg.err, "Notifications: "+msg.level+".")
	case tea.KeyMsg:
		k := p.keys
		n := len(Levels())
		switch {
		case key.Matches(msg, k.Close):
			return p, kit.CloseModal{}, nil
		case key.Matches(msg, k.Up):
			p.cursor = (p.cursor + n - 1) % n
		case key.Matches(msg, k.Down):
			p.cursor = (p.cursor + 1) % n
		case key.Matches(msg, k.Choose):
			level := Levels()[p.cursor].Name
			p.setting, p.Notice, p.Err = level, "", ""
			return p, nil, setLevel(p.b, level)
		}
	}
	return p, nil, nil
}

func levelIndex(name string) int {
	for i, l := range Levels() {
		if l.Name == name {
			return i
		}
	}
	return -1
}

func (p *Page) syncKeys() {
	ready := p.b != nil && p.Loaded
	p.keys.Up.SetEnabled(ready)
	p.keys.Down.SetEnabled(ready)
	p.keys.Choose.SetEnabled(ready && p.setting == "")
}

// View implements settings.Page.
func (p Page) View() string {
	st := p.common.Styles.Modal
	w := p.Width
	if p.b == nil {
		return st.Detail.Render("Notifications are not available here.")
	}
	intro := kit.WrapLines(st.Detail, "While this terminal is not focused, vouch can tell you that it needs you. "+
		"A terminal that does not report focus is always told.", w, 3)
	var lines []string
	if !p.Loaded {
		lines = append(intro, "")
		if p.Err == "" {
			lines = append(lines, st.Detail.Render("Loading…"))
		}
	} else {
		for i, l := range Levels() {
			mark := "○ "
			if l.Name == p.state.Level {
				mark = "● "
			}
			name := l.Name
			if l.Name == p.setting {
				name += " · changing…"
			}
			row := kit.Cut(mark+name+"  "+st.Detail.Render(l.Help), w-2)
			if i == p.cursor && p.Active {
				lines = append(lines, st.Selected.Render("› "+row))
			} else {
				lines = append(lines, st.Item.Render("  "+row))
			}
		}
		term := kit.WrapLines(st.Detail, "This terminal: "+safetext.Line(p.state.Terminal, 0)+".", w, 4)
		var long []string
		if p.state.LongTurn > 0 {
			long = kit.WrapLines(st.Detail, "A long turn is one over "+p.state.LongTurn.String()+
				" (vouch settings set long-turn).", w, 2)
		}
		// The levels always show; the rest as room allows (SPEC L6).
		room := p.Height - len(p.Said(st, w)) - len(lines)
		if room >= len(intro)+1+1+len(term)+len(long) {
			lines = append(append(intro, ""), lines...)
			room -= len(intro) + 1
		}
		if room >= 1+len(term) {
			lines = append(append(lines, ""), term...)
			room -= 1 + len(term)
		}
		if room >= len(long) {
			lines = append(lines, long...)
		}
	}
	// On a page too short for the levels and two lines of what the page
	// says, the sentence gets the lines left, at least one (SPEC L6): the
	// frame would cut it off below.
	foot := p.SaidIn(st, w, max(min(p.Height-len(lines), 2), 1))
	for len(lines)+len(foot) < p.Height {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, foot...), "\n")
}

// State is what the page shows as the backend last said it.
func (p Page) State() State { return p.state }
