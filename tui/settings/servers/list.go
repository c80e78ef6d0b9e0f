package servers

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// List is the MCP Servers page of Settings › Tools & Workflows (SPEC
// B, L2): every configured server with its endpoint host, status, tool
// count, when its catalog was fetched and its last error. From here the
// person adds, edits, tests, activates or deactivates and removes servers.
//
// Activation always goes through a test report (SPEC B2: nothing registers
// tools before the person has seen the test connect): the activate key on
// an inactive server runs a test, and the report offers "activate" once it
// connected. Deactivation acts at once.
type List struct {
	kit.PageFrame
	kit.Loads
	common  kit.Common
	keys    ListKeyMap
	all     KeyMap
	servers Backend
	// skills opens a server's skills (SPEC I1); nil when the backend
	// serves none, and then the key is off.
	skills func(settings.ServerView) kit.Modal
	// watcher, when the Backend implements it, lets the page follow the
	// servers while it is shown (follow.go).
	watcher Watcher
	follow  follow

	list kit.ListCursor[settings.ServerView]
}

// New returns the page over s (nil: it says MCP servers are not
// available); it loads when first focused. skills, when not nil, opens the
// skills an active server serves, on the Skills key.
func New(c kit.Common, keys KeyMap, s Backend, skills func(settings.ServerView) kit.Modal) List {
	l := List{common: c, keys: keys.List, all: keys, servers: s, skills: skills}
	l.watcher, _ = s.(Watcher)
	l.syncKeys()
	return l
}

func (l List) Title() string { return "MCP Servers" }

// ShortHelp implements help.KeyMap.
func (l List) ShortHelp() []key.Binding {
	k := l.keys
	return []key.Binding{k.Add, k.Edit, k.Test, k.Toggle, k.Skills, k.Remove, k.Close}
}

// FullHelp implements help.KeyMap.
func (l List) FullHelp() [][]key.Binding {
	k := l.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.Refresh, k.Close},
		{k.Add, k.Edit, k.Test, k.Toggle, k.Skills, k.Remove},
	}
}

func (l List) SetSize(width, height int) settings.Page {
	l.Resize(width, height)
	return l
}

// focus shows the page and reloads the list: whatever changed it (an
// editor, a test, another page) is reflected when it is seen. Once the
// list is read the page follows it (follow.go).
func (l List) Focus() (settings.Page, tea.Cmd) {
	l.Active = true
	l = l.unfollow()
	var cmd tea.Cmd
	l, cmd = l.reload()
	return l, cmd
}

func (l List) Blur() settings.Page {
	l.Active = false
	return l.unfollow()
}

// reload asks for the list again; the current one stays on screen.
func (l List) reload() (List, tea.Cmd) {
	if l.servers == nil {
		return l, nil
	}
	return l, listServers(l.servers, l.Begin())
}

func (l List) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	l, action, cmd := l.handle(msg)
	l.syncKeys()
	return l, action, cmd
}

func (l List) handle(msg tea.Msg) (List, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case ListedMsg:
		if l.Settle(msg.seq, msg.err) {
			l.list.Set(msg.servers, func(a, b settings.ServerView) bool { return a.ID == b.ID })
			var cmd tea.Cmd
			l, cmd = l.keepFollowing()
			return l, nil, cmd
		}
		return l, nil, nil
	case WatchedMsg:
		var cmd tea.Cmd
		l, cmd = l.watched(msg)
		return l, nil, cmd
	case ActiveMsg:
		verb := "Activated "
		if !msg.active {
			verb = "Deactivated "
		}
		return l.outcome(msg.err, verb+msg.name+".")
	case RemovedMsg:
		return l.outcome(msg.err, "Removed "+msg.name+".")
	case SavedMsg:
		// The editor closed before its save finished.
		return l.outcome(msg.err, "Saved "+msg.view.Name+".")
	case tea.KeyMsg:
		return l.key(msg)
	}
	return l, nil, nil
}

// outcome reports what a Cmd did, in one sentence, and reloads.
func (l List) outcome(err error, done string) (List, kit.Action, tea.Cmd) {
	l.Report(err, done)
	l, cmd := l.reload()
	return l, nil, cmd
}

func (l List) key(msg tea.KeyMsg) (List, kit.Action, tea.Cmd) {
	k := l.keys
	cur, ok := l.list.Selected()
	switch {
	case key.Matches(msg, k.Close):
		return l.unfollow(), kit.CloseModal{}, nil
	case key.Matches(msg, k.Up):
		l.list.Up()
	case key.Matches(msg, k.Down):
		l.list.Down()
	case key.Matches(msg, k.Refresh):
		l.Notice = ""
		var cmd tea.Cmd
		l, cmd = l.reload()
		return l, nil, cmd
	case key.Matches(msg, k.Add):
		return l, kit.OpenModal{Modal: newEditor(l.common, l.all, l.servers, settings.ServerView{})}, nil
	case !ok:
		return l, nil, nil
	case key.Matches(msg, k.Edit):
		return l, kit.OpenModal{Modal: newEditor(l.common, l.all, l.servers, cur)}, nil
	case key.Matches(msg, k.Test):
		return l, kit.OpenModal{Modal: newReport(l.common, l.all.Report, l.servers, cur)}, nil
	case key.Matches(msg, k.Toggle):
		if !cur.Active {
			// Test, then activate from the report (SPEC B2).
			return l, kit.OpenModal{Modal: newReport(l.common, l.all.Report, l.servers, cur)}, nil
		}
		l.Err, l.Notice = "", "Deactivating "+cur.Name+"…"
		return l, nil, setServerActive(l.servers, cur.ID, cur.Name, false)
	case key.Matches(msg, k.Skills):
		if l.skills != nil {
			return l, kit.OpenModal{Modal: l.skills(cur)}, nil
		}
	case key.Matches(msg, k.Remove):
		body := fmt.Sprintf("Remove %s? Its configuration, cached tools and stored secret are deleted; this cannot be undone.",
			safetext.Line(cur.Name, 40))
		c := kit.NewConfirm(l.common, l.all.Confirm, "Remove server", body, "Remove", removeServer(l.servers, cur.ID, cur.Name))
		return l, kit.OpenModal{Modal: c}, nil
	}
	return l, nil, nil
}

// syncKeys enables the bindings that act now.
func (l *List) syncKeys() {
	k := &l.keys
	avail := l.servers != nil
	cur, sel := l.list.Selected()
	sel = sel && avail
	k.Up.SetEnabled(len(l.list.Items) > 1)
	k.Down.SetEnabled(len(l.list.Items) > 1)
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
	k.Skills.SetEnabled(sel && l.skills != nil && cur.Active)
}

// Column widths of the list; name and host share what is left.
const (
	toolsColWidth   = 9 // "118 tools"
	fetchedColWidth = 8 // "59m ago"
)

func (l List) View() string {
	st := l.common.Styles.Modal
	w := l.Width
	if l.servers == nil {
		return st.Detail.Render("MCP servers are not available here.")
	}
	rest := max(w-2-settings.StatusWidth-toolsColWidth-fetchedColWidth-4, 10)
	nameW := rest * 9 / 20
	hostW := rest - nameW - 1

	var foot string
	switch {
	case l.Err != "":
		foot = strings.Join(kit.WrapLines(st.Error, "✗ "+l.Err, w, 2), "\n")
	case l.Notice != "":
		foot = st.Detail.Render(safetext.Line(l.Notice, w))
	case l.Loading && !l.Loaded:
		foot = st.Detail.Render("Loading servers…")
	default:
		active := 0
		for _, v := range l.list.Items {
			if v.Active {
				active++
			}
		}
		foot = st.Detail.Render(fmt.Sprintf("%s · %d active", kit.Plural(len(l.list.Items), "server"), active))
		if l.Loading {
			foot += st.Detail.Render(" · refreshing…")
		}
	}
	if len(l.list.Items) == 0 {
		lines := []string{}
		if l.Loaded {
			lines = append(lines, st.Detail.Render(fmt.Sprintf("No MCP servers yet. Press %s to add one.", l.keys.Add.Help().Key)))
		}
		return strings.Join(append(lines, "", foot), "\n")
	}

	header := "  " + kit.Pad("Name", nameW) + " " + kit.Pad("Endpoint", hostW) + " " + kit.Pad("Status", settings.StatusWidth) + " " +
		kit.PadLeft("Tools", toolsColWidth) + " " + kit.PadLeft("Fetched", fetchedColWidth)
	blocks := make([][]string, len(l.list.Items))
	for i, v := range l.list.Items {
		blocks[i] = l.rows(v, i == l.list.Cursor, nameW, hostW)
	}
	rows := max(l.Height-1-lipgloss.Height(foot), 1) // the column titles and the footer
	lines := append([]string{st.Detail.Render(header)}, kit.ScrollBlocks(blocks, l.list.Cursor, rows)...)
	for len(lines) < rows+1 {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, foot), "\n")
}

// rows renders one server: its row, its details when selected, and its
// last error.
func (l List) rows(v settings.ServerView, selected bool, nameW, hostW int) []string {
	st := l.common.Styles.Modal
	w := l.Width
	name := safetext.Line(v.Name, nameW)
	cursor := "  "
	nameCell := st.Item.Render(kit.Pad(name, nameW))
	if selected {
		cursor = st.Prompt.Render("› ")
		nameCell = kit.Pad(st.Selected.Render(name), nameW)
	}
	tools := "–"
	if v.ToolCount > 0 || !v.FetchedAt.IsZero() {
		tools = fmt.Sprintf("%d tools", v.ToolCount)
		if v.ToolCount == 1 {
			tools = "1 tool"
		}
	}
	row := cursor + nameCell + " " +
		st.Detail.Render(kit.Pad(endpointHost(v.URL, hostW), hostW)) + " " +
		kit.Pad(settings.StatusBadge(st, settings.StatusOf(v)), settings.StatusWidth) + " " +
		st.Item.Render(kit.PadLeft(safetext.Line(tools, toolsColWidth), toolsColWidth)) + " " +
		st.Detail.Render(kit.PadLeft(kit.Ago(l.common.Now(), v.FetchedAt), fetchedColWidth))
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
