package tools

import (
	"fmt"
	"maps"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/policy"
	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// Page is the Tools page of Settings › Tools & Workflows: every cached
// tool, grouped by server, switched on or off for this conversation (issue
// 3). A row shows the switch, the tool's name, title and the first line of
// its description, and says when the tool cannot run now. The focused row
// also shows what the server claims about the tool, labelled as unverified
// (SPEC D2): the claims change nothing about approval. A tool whose
// definition changed since the person classified it is marked so (SPEC
// D8).
//
// A switch is flipped only when SetToolEnabled has answered: until then the
// row shows it pending, and a failure leaves it as it was, with the error.
//
// The same page, over another Source, is the per-profile tool selection
// pane (tui/settings/profiles): there a switch edits the profile's allowlist.
type Page struct {
	kit.PageFrame
	kit.Loads
	common kit.Common
	keys   KeyMap
	src    Source

	filter    textinput.Model
	filtering bool

	tools   []settings.ToolView
	order   []settings.ServerView // servers, in ListServers order
	visible []int                 // indexes into tools that pass the filter, in display order
	cursor  int                   // index into visible
	pending map[string]bool
}

// Source is whose tool selection the tools page shows and switches:
// the conversation's, through a Catalog, or a profile's allowlist, through
// the profiles page's backend. Its Cmds answer with ListedMsg and
// ToggledMsg of its Scope.
type Source struct {
	// Scope tells this source's results from another's ("" : the
	// conversation).
	Scope string
	// Load lists the tools (nil: nothing backs the page, and it says
	// Missing); Set switches one.
	Load    func(seq int) tea.Cmd
	Set     func(identity string, on bool) tea.Cmd
	Missing string
	// On says what a switch that is on means, e.g. "on for this
	// conversation"; Off what one that is off means.
	On, Off string
}

// Conversation is the conversation's tool selection through s (nil: the
// page says MCP servers are not available).
func Conversation(s Catalog) Source {
	src := Source{
		Missing: "MCP servers are not available here, so there are no tools to show.",
		On:      "on for this conversation",
		Off:     "off for this conversation",
	}
	if s != nil {
		src.Load = func(seq int) tea.Cmd { return loadTools(s, seq) }
		src.Set = func(id string, on bool) tea.Cmd { return setToolEnabled(s, id, on) }
	}
	return src
}

// New returns the tools page over src; it loads when focused. Over
// Conversation it is the Tools page of Settings.
func New(c kit.Common, keys KeyMap, src Source) Page {
	st := c.Styles.Modal
	f := textinput.New()
	f.Prompt = "/ "
	f.Placeholder = "filter by name, title or server"
	f.PromptStyle = st.Prompt
	f.TextStyle = st.Item
	f.PlaceholderStyle = st.Detail
	p := Page{common: c, keys: keys, src: src, filter: f}
	p.syncKeys()
	return p
}

func (p Page) Title() string { return "Tools" }

// ShortHelp implements help.KeyMap.
func (p Page) ShortHelp() []key.Binding {
	k := p.keys
	if p.filtering {
		return []key.Binding{k.Up, k.Down, k.DoneFilter, k.ClearFilter}
	}
	return []key.Binding{k.Up, k.Down, k.Toggle, k.Choose, k.Filter, k.ClearFilter, k.Close}
}

// FullHelp implements help.KeyMap.
func (p Page) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down, k.Toggle, k.Choose, k.Refresh}, {k.Filter, k.DoneFilter, k.ClearFilter, k.Close}}
}

func (p Page) SetSize(width, height int) settings.Page {
	p.Resize(width, height)
	p.filter.Width = max(width-4, 10)
	return p
}

// focus shows the page and reloads the tools.
func (p Page) Focus() (settings.Page, tea.Cmd) {
	p.Active = true
	var cmd tea.Cmd
	p, cmd = p.reload()
	return p, cmd
}

// reload asks for the tools again; the current ones stay on screen.
func (p Page) reload() (Page, tea.Cmd) {
	if p.src.Load == nil {
		return p, nil
	}
	return p, p.src.Load(p.Begin())
}

func (p Page) Blur() settings.Page {
	p.Active = false
	p.filtering = false
	p.filter.Blur()
	return p
}

func (p Page) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p Page) handle(msg tea.Msg) (Page, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case ListedMsg:
		if msg.Scope != p.src.Scope || !p.Settle(msg.Seq, msg.Err) {
			return p, nil, nil
		}
		cur, had := p.selected()
		p.tools, p.order = msg.Tools, msg.Servers
		p.refilter()
		for i, ti := range p.visible {
			if had && p.tools[ti].Identity == cur.Identity {
				p.cursor = i
			}
		}
		return p, nil, nil
	case ToggledMsg:
		return p.toggled(msg), nil, nil
	case tea.KeyMsg:
		return p.key(msg)
	}
	if p.filtering {
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		return p, nil, cmd
	}
	return p, nil, nil
}

// toggled applies SetToolEnabled's answer: the switch moves only on
// success.
func (p Page) toggled(msg ToggledMsg) Page {
	if msg.Scope != p.src.Scope || !p.pending[msg.Identity] {
		return p
	}
	p.pending = maps.Clone(p.pending)
	delete(p.pending, msg.Identity)
	if msg.Err != nil {
		p.Report(msg.Err, "")
		return p
	}
	p.Report(nil, "")
	tools := append([]settings.ToolView(nil), p.tools...)
	for i := range tools {
		if tools[i].Identity == msg.Identity {
			tools[i].Enabled = msg.Enabled
			state := p.src.Off
			if msg.Enabled {
				state = p.src.On
			}
			p.Notice = fmt.Sprintf("%s is %s.", safetext.Line(tools[i].Name, 32), state)
		}
	}
	p.tools = tools
	return p
}

func (p Page) key(msg tea.KeyMsg) (Page, kit.Action, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Up):
		p.cursor = max(p.cursor-1, 0)
		return p, nil, nil
	case key.Matches(msg, k.Down):
		p.cursor = min(p.cursor+1, max(len(p.visible)-1, 0))
		return p, nil, nil
	case key.Matches(msg, k.DoneFilter):
		p.filtering = false
		p.filter.Blur()
		return p, nil, nil
	case key.Matches(msg, k.ClearFilter):
		p.filtering = false
		p.filter.Blur()
		p.filter.Reset()
		p.refilter()
		return p, nil, nil
	case p.filtering:
		before := p.filter.Value()
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		if p.filter.Value() != before {
			p.refilter()
		}
		return p, nil, cmd
	case key.Matches(msg, k.Close):
		return p, kit.CloseModal{}, nil
	case key.Matches(msg, k.Filter):
		p.filtering = true
		return p, nil, p.filter.Focus()
	case key.Matches(msg, k.Choose):
		return p, kit.ChooseTools{}, nil
	case key.Matches(msg, k.Refresh):
		p.Notice = ""
		var cmd tea.Cmd
		p, cmd = p.reload()
		return p, nil, cmd
	case key.Matches(msg, k.Toggle):
		t, ok := p.selected()
		if !ok || p.pending[t.Identity] {
			return p, nil, nil
		}
		p.pending = maps.Clone(p.pending)
		if p.pending == nil {
			p.pending = map[string]bool{}
		}
		p.pending[t.Identity] = true
		p.Notice = ""
		return p, nil, p.src.Set(t.Identity, !t.Enabled)
	}
	return p, nil, nil
}

// selected returns the tool under the cursor.
func (p Page) selected() (settings.ToolView, bool) {
	if p.cursor < 0 || p.cursor >= len(p.visible) {
		return settings.ToolView{}, false
	}
	return p.tools[p.visible[p.cursor]], true
}

// refilter recomputes the visible tools, grouped in server order: servers
// as ListServers ordered them, then any server only the tools name.
func (p *Page) refilter() {
	q := strings.ToLower(strings.TrimSpace(p.filter.Value()))
	rank := make(map[string]int, len(p.order))
	for i, s := range p.order {
		rank[s.ID] = i
	}
	byServer := make(map[string][]int)
	var extra []string
	for i, t := range p.tools {
		if q != "" && !strings.Contains(strings.ToLower(t.Name+"\x00"+t.Title+"\x00"+t.ServerName), q) {
			continue
		}
		if _, ok := rank[t.ServerID]; !ok && byServer[t.ServerID] == nil {
			extra = append(extra, t.ServerID)
		}
		byServer[t.ServerID] = append(byServer[t.ServerID], i)
	}
	p.visible = p.visible[:0:0]
	for _, s := range p.order {
		p.visible = append(p.visible, byServer[s.ID]...)
	}
	for _, id := range extra {
		p.visible = append(p.visible, byServer[id]...)
	}
	p.cursor = min(p.cursor, max(len(p.visible)-1, 0))
}

// server returns the view of the server with id, if listed.
func (p Page) server(id string) (settings.ServerView, bool) {
	for _, s := range p.order {
		if s.ID == id {
			return s, true
		}
	}
	return settings.ServerView{}, false
}

// syncKeys enables the bindings that act now.
func (p *Page) syncKeys() {
	k := &p.keys
	avail := p.src.Load != nil
	_, sel := p.selected()
	filtered := p.filtering || p.filter.Value() != ""
	k.Up.SetEnabled(len(p.visible) > 1)
	k.Down.SetEnabled(len(p.visible) > 1)
	k.Toggle.SetEnabled(avail && sel && !p.filtering)
	k.Filter.SetEnabled(avail && !p.filtering)
	k.Refresh.SetEnabled(avail && !p.filtering)
	k.Choose.SetEnabled(avail && !p.filtering && p.src.Scope == "") // the selector is the conversation's
	k.DoneFilter.SetEnabled(p.filtering)
	k.ClearFilter.SetEnabled(filtered)
	k.Close.SetEnabled(!filtered)
}

// toolMarkWidth is the cursor and the switch, "› [x] ".
const toolMarkWidth = 6

func (p Page) View() string {
	st := p.common.Styles.Modal
	w := p.Width
	if p.src.Load == nil {
		return st.Detail.Render(p.src.Missing)
	}
	on := 0
	for _, t := range p.tools {
		if t.Enabled {
			on++
		}
	}
	top := st.Detail.Render(fmt.Sprintf("%s filter · %s, %d %s", p.keys.Filter.Help().Key, kit.Plural(len(p.tools), "tool"), on, p.src.On))
	if p.filtering || p.filter.Value() != "" {
		top = p.filter.View()
	}

	var foot string
	switch {
	case p.Err != "":
		foot = strings.Join(kit.WrapLines(st.Error, "✗ "+p.Err, w, 2), "\n")
	case p.Notice != "":
		foot = st.Detail.Render(safetext.Line(p.Notice, w))
	case p.Loading && !p.Loaded:
		foot = st.Detail.Render("Loading tools…")
	case p.Loading:
		foot = st.Detail.Render("Refreshing…")
	}

	rows := max(p.Height-1-lipgloss.Height(foot), 1) // the filter line and the footer
	body, focus := p.rows(w)
	switch {
	case !p.Loaded:
	case len(p.tools) == 0:
		body = []string{st.Detail.Render("No tools cached yet: add a server, test it and activate it on MCP Servers.")}
	case len(p.visible) == 0:
		body = []string{st.Detail.Render("No tool matches the filter.")}
	}
	if len(body) > rows {
		first := max(0, min(focus-rows/3, len(body)-rows))
		above, below := first, len(body)-first-rows
		body = body[first : first+rows]
		// Say where more tools lie (issue 28 item 10); with too few rows
		// to spare one, the focused tool has them all.
		if rows >= 4 {
			if above > 0 {
				body[0] = st.Detail.Render(kit.Cut("  ↑ "+kit.Plural(above, "more line")+" above", w))
			}
			if below > 0 {
				body[rows-1] = st.Detail.Render(kit.Cut("  ↓ "+kit.Plural(below, "more line")+" below", w))
			}
		}
	}
	for len(body) < rows {
		body = append(body, "")
	}
	return strings.Join(append(append([]string{top}, body...), foot), "\n")
}

// rows renders the visible tools under their servers' headers, and returns
// the index of the focused tool's line.
func (p Page) rows(w int) ([]string, int) {
	st := p.common.Styles.Modal
	nameW := 8
	for _, ti := range p.visible {
		nameW = max(nameW, ansi.StringWidth(safetext.Line(p.tools[ti].Name, 0)))
	}
	nameW = min(nameW, w*3/10)
	var lines []string
	focus, group := 0, "\x00"
	for n, ti := range p.visible {
		t := p.tools[ti]
		srv, known := p.server(t.ServerID)
		if t.ServerID != group {
			group = t.ServerID
			name := t.ServerName
			if known {
				name = srv.Name
			}
			header := st.Group.Render(safetext.Line(name, w/2))
			if known {
				header += "  " + settings.StatusBadge(st, settings.StatusOf(srv))
			}
			lines = append(lines, header)
		}
		focused := n == p.cursor
		if focused {
			focus = len(lines)
		}
		lines = append(lines, p.row(t, srv, known, focused, nameW, w))
		if focused {
			lines = append(lines, p.claims(t, w)...)
		}
	}
	return lines, focus
}

// row renders one tool: cursor, switch, name, title and description, and
// why it cannot run now when it cannot.
func (p Page) row(t settings.ToolView, srv settings.ServerView, known, focused bool, nameW, w int) string {
	st := p.common.Styles.Modal
	cursor := "  "
	if focused {
		cursor = st.Prompt.Render("› ")
	}
	box := "[ ] "
	switch {
	case p.pending[t.Identity]:
		box = "[·] "
	case t.Enabled:
		box = "[x] "
	}
	var mark string
	if !t.Executable {
		why := "unavailable"
		if known {
			why = "unavailable: server " + string(settings.StatusOf(srv))
			if !srv.Active {
				why = "unavailable: server inactive"
			}
		}
		mark = " " + st.StatusWarn.Render(safetext.Line(why, w/2))
	}
	if t.Tokens > 0 {
		mark = " " + st.Detail.Render(kit.Tokens(t.Tokens)+" tok") + mark
	}
	if t.Changed {
		mark = " " + st.StatusWarn.Render(policy.MarkChanged) + mark
	}
	name := safetext.Line(t.Name, nameW)
	nameCell := st.Item.Render(kit.Pad(name, nameW))
	if focused {
		nameCell = kit.Pad(st.Selected.Render(name), nameW)
	}
	about := safetext.Line(t.Title, 0)
	if d := kit.FirstLine(t.Description, 0); d != "" {
		if about != "" {
			about += " — "
		}
		about += d
	}
	room := w - toolMarkWidth - nameW - 1 - ansi.StringWidth(mark)
	// The marks of a narrow page may not fit beside the name: the row is
	// cut to the page, not left for the frame to cut.
	return kit.Cut(cursor+st.Item.Render(box)+nameCell+" "+st.Detail.Render(kit.Pad(safetext.Line(about, max(room, 1)), max(room, 0)))+mark, w)
}

// claims renders the server's annotations of t under an explicit label:
// they are what the server says, unverified (SPEC D2).
func (p Page) claims(t settings.ToolView, w int) []string {
	st := p.common.Styles.Modal
	indent := strings.Repeat(" ", toolMarkWidth)
	if strings.HasPrefix(t.Identity, "builtin:") {
		// vouch's own tool: no server, so nothing claimed (issue 28 item 10).
		return []string{indent + st.Detail.Render(kit.Cut("built into vouch; runs on this machine", w-toolMarkWidth))}
	}
	label := "server claims (unverified): "
	text := "none"
	if len(t.Claims) > 0 {
		cs := make([]string, len(t.Claims))
		for i, c := range t.Claims {
			cs[i] = safetext.Line(c, 0)
		}
		text = strings.Join(cs, " · ")
	}
	// The label and the claims wrap together, so no claim is cut off.
	lines := kit.WrapLines(st.Detail, label+text, w-toolMarkWidth, 3)
	if plain := ansi.Strip(lines[0]); strings.HasPrefix(plain, label) {
		lines[0] = st.Claim.Render(label) + st.Detail.Render(plain[len(label):])
	}
	for i, l := range lines {
		lines[i] = indent + l
	}
	return lines
}

// NewShown returns the page over src shown at once, its first load
// (number 1) under way: the host starts it with src.Load(1). A modal that
// is nothing but the list, such as the profile's tool selection, uses it.
func NewShown(c kit.Common, keys KeyMap, src Source) Page {
	p := New(c, keys, src)
	p.Active = true
	if src.Load != nil {
		p.Seq, p.Loading = 1, true
	}
	p.syncKeys()
	return p
}

// Filter is the filter as typed.
func (p Page) Filter() string { return p.filter.Value() }

// Tools returns every tool listed, in the order the backend gave them.
func (p Page) Tools() []settings.ToolView { return append([]settings.ToolView(nil), p.tools...) }

// Visible returns the tools that pass the filter, in display order.
func (p Page) Visible() []settings.ToolView {
	out := make([]settings.ToolView, 0, len(p.visible))
	for _, i := range p.visible {
		out = append(out, p.tools[i])
	}
	return out
}

// Pending reports whether the switch of the tool identity waits for the
// backend's answer.
func (p Page) Pending(identity string) bool { return p.pending[identity] }

// PendingCount is how many switches wait for the backend's answer.
func (p Page) PendingCount() int { return len(p.pending) }

// Selected returns the tool under the cursor.
func (p Page) Selected() (settings.ToolView, bool) { return p.selected() }
