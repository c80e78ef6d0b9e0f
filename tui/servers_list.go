package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/safetext"
)

// serverList is the MCP Servers page of Settings › Tools & Workflows (SPEC
// B, L2): every configured server with its endpoint host, status, tool
// count, when its catalog was fetched and its last error. From here the
// person adds, edits, tests, activates or deactivates and removes servers.
//
// Activation always goes through a test report (SPEC B2: nothing registers
// tools before the person has seen the test connect): the activate key on
// an inactive server runs a test, and the report offers "activate" once it
// connected. Deactivation acts at once.
type serverList struct {
	pageFrame
	loads
	common  Common
	keys    ServerListKeyMap
	servers Servers

	list listCursor[ServerView]
}

// newServerList returns the page; it loads when first focused.
func newServerList(c Common, s Servers) serverList {
	l := serverList{common: c, keys: c.Keys.Servers, servers: s}
	l.syncKeys()
	return l
}

func (l serverList) title() string { return "MCP Servers" }

// ShortHelp implements help.KeyMap.
func (l serverList) ShortHelp() []key.Binding {
	k := l.keys
	return []key.Binding{k.Add, k.Edit, k.Test, k.Toggle, k.Skills, k.Remove, k.Close}
}

// FullHelp implements help.KeyMap.
func (l serverList) FullHelp() [][]key.Binding {
	k := l.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.Refresh, k.Close},
		{k.Add, k.Edit, k.Test, k.Toggle, k.Skills, k.Remove},
	}
}

func (l serverList) setSize(width, height int) settingsPage {
	l.resize(width, height)
	return l
}

// focus shows the page and reloads the list: whatever changed it (an
// editor, a test, another page) is reflected when it is seen.
func (l serverList) focus() (settingsPage, tea.Cmd) {
	l.active = true
	var cmd tea.Cmd
	l, cmd = l.reload()
	return l, cmd
}

func (l serverList) blur() settingsPage {
	l.active = false
	return l
}

// reload asks for the list again; the current one stays on screen.
func (l serverList) reload() (serverList, tea.Cmd) {
	if l.servers == nil {
		return l, nil
	}
	return l, listServers(l.servers, l.begin())
}

func (l serverList) update(msg tea.Msg) (settingsPage, Action, tea.Cmd) {
	l, action, cmd := l.handle(msg)
	l.syncKeys()
	return l, action, cmd
}

func (l serverList) handle(msg tea.Msg) (serverList, Action, tea.Cmd) {
	switch msg := msg.(type) {
	case serversMsg:
		if l.settle(msg.seq, msg.err) {
			l.list.set(msg.servers, func(a, b ServerView) bool { return a.ID == b.ID })
		}
		return l, nil, nil
	case serverActiveMsg:
		verb := "Activated "
		if !msg.active {
			verb = "Deactivated "
		}
		return l.outcome(msg.err, verb+msg.name+".")
	case serverRemovedMsg:
		return l.outcome(msg.err, "Removed "+msg.name+".")
	case serverSavedMsg:
		// The editor closed before its save finished.
		return l.outcome(msg.err, "Saved "+msg.view.Name+".")
	case tea.KeyMsg:
		return l.key(msg)
	}
	return l, nil, nil
}

// outcome reports what a Cmd did, in one sentence, and reloads.
func (l serverList) outcome(err error, done string) (serverList, Action, tea.Cmd) {
	l.report(err, done)
	l, cmd := l.reload()
	return l, nil, cmd
}

func (l serverList) key(msg tea.KeyMsg) (serverList, Action, tea.Cmd) {
	k := l.keys
	cur, ok := l.list.selected()
	switch {
	case key.Matches(msg, k.Close):
		return l, CloseModal{}, nil
	case key.Matches(msg, k.Up):
		l.list.up()
	case key.Matches(msg, k.Down):
		l.list.down()
	case key.Matches(msg, k.Refresh):
		l.notice = ""
		var cmd tea.Cmd
		l, cmd = l.reload()
		return l, nil, cmd
	case key.Matches(msg, k.Add):
		return l, OpenModal{Modal: newServerEditor(l.common, l.servers, ServerView{})}, nil
	case !ok:
		return l, nil, nil
	case key.Matches(msg, k.Edit):
		return l, OpenModal{Modal: newServerEditor(l.common, l.servers, cur)}, nil
	case key.Matches(msg, k.Test):
		return l, OpenModal{Modal: newTestReport(l.common, l.servers, cur)}, nil
	case key.Matches(msg, k.Toggle):
		if !cur.Active {
			// Test, then activate from the report (SPEC B2).
			return l, OpenModal{Modal: newTestReport(l.common, l.servers, cur)}, nil
		}
		l.err, l.notice = "", "Deactivating "+cur.Name+"…"
		return l, nil, setServerActive(l.servers, cur.ID, cur.Name, false)
	case key.Matches(msg, k.Skills):
		if ss, ok := l.servers.(ServerSkills); ok {
			return l, OpenModal{Modal: newServerSkillsPane(l.common, ss, cur)}, nil
		}
	case key.Matches(msg, k.Remove):
		body := fmt.Sprintf("Remove %s? Its configuration, cached tools and stored secret are deleted; this cannot be undone.",
			safetext.Line(cur.Name, 40))
		c := newConfirm(l.common, "Remove server", body, "Remove", removeServer(l.servers, cur.ID, cur.Name))
		return l, OpenModal{Modal: c}, nil
	}
	return l, nil, nil
}

// syncKeys enables the bindings that act now.
func (l *serverList) syncKeys() {
	k := &l.keys
	avail := l.servers != nil
	cur, sel := l.list.selected()
	sel = sel && avail
	k.Up.SetEnabled(len(l.list.items) > 1)
	k.Down.SetEnabled(len(l.list.items) > 1)
	k.Add.SetEnabled(avail)
	k.Refresh.SetEnabled(avail)
	k.Edit.SetEnabled(sel)
	k.Test.SetEnabled(sel && strings.TrimSpace(cur.Name) != "")
	k.Toggle.SetEnabled(sel)
	if cur.Active {
		k.Toggle.SetHelp(k.Toggle.Help().Key, "deactivate")
	} else {
		k.Toggle.SetHelp(k.Toggle.Help().Key, "activate")
	}
	k.Remove.SetEnabled(sel)
	_, skills := l.servers.(ServerSkills)
	k.Skills.SetEnabled(sel && skills && cur.Active)
}

// Column widths of the list; name and host share what is left.
const (
	toolsColWidth   = 8 // "12 tools"
	fetchedColWidth = 8 // "59m ago"
)

func (l serverList) view() string {
	st := l.common.Styles.Modal
	w := l.width
	if l.servers == nil {
		return st.Detail.Render("MCP servers are not available here.")
	}
	rest := max(w-2-statusWidth-toolsColWidth-fetchedColWidth-4, 10)
	nameW := rest * 9 / 20
	hostW := rest - nameW - 1

	var foot string
	switch {
	case l.err != "":
		foot = strings.Join(wrapLines(st.Error, "✗ "+l.err, w, 2), "\n")
	case l.notice != "":
		foot = st.Detail.Render(safetext.Line(l.notice, w))
	case l.loading && !l.loaded:
		foot = st.Detail.Render("Loading servers…")
	default:
		active := 0
		for _, v := range l.list.items {
			if v.Active {
				active++
			}
		}
		foot = st.Detail.Render(fmt.Sprintf("%d servers · %d active", len(l.list.items), active))
		if l.loading {
			foot += st.Detail.Render(" · refreshing…")
		}
	}
	if len(l.list.items) == 0 {
		lines := []string{}
		if l.loaded {
			lines = append(lines, st.Detail.Render(fmt.Sprintf("No MCP servers yet. Press %s to add one.", l.keys.Add.Help().Key)))
		}
		return strings.Join(append(lines, "", foot), "\n")
	}

	header := "  " + pad("Name", nameW) + " " + pad("Endpoint", hostW) + " " + pad("Status", statusWidth) + " " +
		padLeft("Tools", toolsColWidth) + " " + padLeft("Fetched", fetchedColWidth)
	blocks := make([][]string, len(l.list.items))
	for i, v := range l.list.items {
		blocks[i] = l.rows(v, i == l.list.cursor, nameW, hostW)
	}
	rows := max(l.height-1-lipgloss.Height(foot), 1) // the column titles and the footer
	lines := append([]string{st.Detail.Render(header)}, scrollBlocks(blocks, l.list.cursor, rows)...)
	for len(lines) < rows+1 {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, foot), "\n")
}

// rows renders one server: its row, its details when selected, and its
// last error.
func (l serverList) rows(v ServerView, selected bool, nameW, hostW int) []string {
	st := l.common.Styles.Modal
	w := l.width
	name := safetext.Line(v.Name, nameW)
	cursor := "  "
	nameCell := st.Item.Render(pad(name, nameW))
	if selected {
		cursor = st.Prompt.Render("› ")
		nameCell = pad(st.Selected.Render(name), nameW)
	}
	tools := "–"
	if v.ToolCount > 0 || !v.FetchedAt.IsZero() {
		tools = fmt.Sprintf("%d tools", v.ToolCount)
		if v.ToolCount == 1 {
			tools = "1 tool"
		}
	}
	row := cursor + nameCell + " " +
		st.Detail.Render(pad(endpointHost(v.URL, hostW), hostW)) + " " +
		pad(statusBadge(st, serverStatus(v)), statusWidth) + " " +
		st.Item.Render(padLeft(safetext.Line(tools, toolsColWidth), toolsColWidth)) + " " +
		st.Detail.Render(padLeft(ago(l.common.Now(), v.FetchedAt), fetchedColWidth))
	out := []string{row}
	if selected {
		detail := []string{safetext.Line(v.URL, 0)}
		if v.HeaderName != "" {
			h := "header " + safetext.Line(v.HeaderName, 24)
			if v.HasSecret {
				h += " (secret stored)"
			}
			detail = append(detail, h)
		} else if v.HasSecret {
			detail = append(detail, "secret stored")
		}
		if v.Active {
			detail = append(detail, "active")
		} else {
			detail = append(detail, "not active")
		}
		out = append(out, st.Detail.Render("    "+safetext.Line(strings.Join(detail, " · "), w-4)))
	}
	if v.Err != "" {
		out = append(out, st.Error.Render("    "+safetext.Line("✗ "+v.Err, w-4)))
	}
	return out
}
