package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// profileList is the Profiles page of Settings › Tools & Workflows (SPEC
// H2, L2): every Agent Profile with its definition, revision, tool and
// skill counts and schedule. n opens the profile editor for a new profile,
// enter for the one under the cursor, t its tool selection pane; g runs it
// now in the background, after asking for the task, when the backend is a
// ProfileRunner; x removes it after a confirmation whose default is
// Cancel. The panes above it reload the list when they close (reveal).
type profileList struct {
	kit.PageFrame
	kit.Loads
	common   Common
	keys     ProfileListKeyMap
	profiles Profiles
	runner   ProfileRunner // nil: profiles cannot run from here

	list kit.ListCursor[ProfileSummary]
}

func newProfileList(c Common, p Profiles) profileList {
	l := profileList{common: c, keys: c.Keys.Workflow.Profiles, profiles: p}
	if r, ok := p.(ProfileRunner); ok {
		l.runner = r
	}
	l.syncKeys()
	return l
}

func (l profileList) Title() string { return "Profiles" }

// ShortHelp implements help.KeyMap.
func (l profileList) ShortHelp() []key.Binding {
	k := l.keys
	return []key.Binding{k.New, k.Edit, k.Tools, k.Run, k.Remove, k.Close}
}

// FullHelp implements help.KeyMap.
func (l profileList) FullHelp() [][]key.Binding {
	k := l.keys
	return [][]key.Binding{{k.Up, k.Down, k.Refresh}, {k.New, k.Edit, k.Tools, k.Run, k.Remove, k.Close}}
}

func (l profileList) SetSize(width, height int) settings.Page {
	l.Resize(width, height)
	return l
}

func (l profileList) Focus() (settings.Page, tea.Cmd) {
	l.Active = true
	l, cmd := l.reload()
	return l, cmd
}

func (l profileList) reload() (profileList, tea.Cmd) {
	if l.profiles == nil {
		return l, nil
	}
	return l, listProfiles(l.profiles, l.Begin())
}

func (l profileList) Blur() settings.Page {
	l.Active = false
	return l
}

func (l profileList) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	l, action, cmd := l.handle(msg)
	l.syncKeys()
	return l, action, cmd
}

func (l profileList) handle(msg tea.Msg) (profileList, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case profilesMsg:
		if l.Settle(msg.seq, msg.err) {
			l.list.Set(msg.profiles, func(a, b ProfileSummary) bool { return a.Name == b.Name })
		}
		return l, nil, nil
	case profileRemovedMsg:
		if msg.err != nil {
			l.Err, l.Notice = kit.Sentence(msg.err), ""
			return l, nil, nil
		}
		l.Err, l.Notice = "", "Removed "+safetext.Line(msg.name, 40)+"; its past runs stay in the run history."
		l, cmd := l.reload()
		return l, nil, cmd
	case profileRunMsg:
		if msg.err == nil {
			l.Err, l.Notice = "", fmt.Sprintf("Started run %s of %s in the background; calls that need approval wait in the approvals inbox (%s).",
				safetext.Line(msg.runID, 40), safetext.Line(msg.profile, 40), l.common.Keys.Chat.Inbox.Help().Key)
		}
		return l, nil, nil
	case tea.KeyMsg:
		return l.key(msg)
	}
	return l, nil, nil
}

func (l profileList) key(msg tea.KeyMsg) (profileList, kit.Action, tea.Cmd) {
	k := l.keys
	p, sel := l.list.Selected()
	switch {
	case key.Matches(msg, k.Close):
		return l, kit.CloseModal{}, nil
	case key.Matches(msg, k.Up):
		l.list.Up()
	case key.Matches(msg, k.Down):
		l.list.Down()
	case key.Matches(msg, k.Refresh):
		l.Notice = ""
		l, cmd := l.reload()
		return l, nil, cmd
	case key.Matches(msg, k.New):
		l.Notice = ""
		return l, kit.OpenModal{Modal: newProfileEditor(l.common, l.profiles, "")}, nil
	case key.Matches(msg, k.Edit) && sel:
		l.Notice = ""
		return l, kit.OpenModal{Modal: newProfileEditor(l.common, l.profiles, p.Name)}, nil
	case key.Matches(msg, k.Tools) && sel:
		l.Notice = ""
		return l, kit.OpenModal{Modal: newProfileTools(l.common, l.profiles, p.Name)}, nil
	case key.Matches(msg, k.Run) && sel && l.runner != nil:
		l.Notice = ""
		return l, kit.OpenModal{Modal: newProfileRun(l.common, l.runner, p.Name)}, nil
	case key.Matches(msg, k.Remove) && sel:
		body := fmt.Sprintf("Remove the profile %s with its schedule? Its past runs stay in the run history.",
			safetext.Line(p.Name, 40))
		return l, kit.OpenModal{Modal: kit.NewConfirm(l.common.Common, l.common.Keys.Confirm, "Remove profile", body, "Remove",
			removeProfile(l.profiles, p.Name))}, nil
	}
	return l, nil, nil
}

func (l *profileList) syncKeys() {
	k := &l.keys
	avail := l.profiles != nil
	_, sel := l.list.Selected()
	k.Up.SetEnabled(len(l.list.Items) > 1)
	k.Down.SetEnabled(len(l.list.Items) > 1)
	k.New.SetEnabled(avail)
	k.Edit.SetEnabled(avail && sel)
	k.Tools.SetEnabled(avail && sel)
	k.Run.SetEnabled(avail && sel && l.runner != nil)
	k.Remove.SetEnabled(avail && sel)
	k.Refresh.SetEnabled(avail)
}

func (l profileList) View() string {
	st := l.common.Styles.Modal
	w := l.Width
	if l.profiles == nil {
		return st.Detail.Render("Agent Profiles are not available here.")
	}
	foot := l.Said(st, w)
	if foot == nil && l.Loading && !l.Loaded {
		foot = []string{st.Detail.Render("Loading profiles…")}
	}
	var body []string
	switch {
	case !l.Loaded:
	case len(l.list.Items) == 0:
		body = kit.WrapLines(st.Detail, "No profiles yet. A profile ties a definition to a model, the tools it may "+
			"use, a workspace folder, skills and an optional schedule; n makes one.", w, 3)
	default:
		body = append(body, st.Label.Render(kit.Pad("  Profile", 22)+kit.Pad("Definition", 20)+kit.Pad("Rev", 5)+"Tools Skills  Schedule"))
		for i, p := range l.list.Items {
			body = append(body, l.row(p, i == l.list.Cursor, w))
		}
	}
	rows := max(l.Height-len(foot), 1)
	if len(body) > rows {
		first := kit.Window(l.list.Cursor, rows, len(body))
		body = append(body[:1:1], body[first+1:first+rows]...)
	}
	for len(body) < rows {
		body = append(body, "")
	}
	return strings.Join(append(body, foot...), "\n")
}

// row renders one profile on one line.
func (l profileList) row(p ProfileSummary, focused bool, w int) string {
	st := l.common.Styles.Modal
	cursor := "  "
	name := kit.Pad(safetext.Line(p.Name, 19), 20)
	if focused {
		cursor = st.Prompt.Render("› ")
		name = kit.Pad(st.Selected.Render(safetext.Line(p.Name, 19)), 20)
	} else {
		name = st.Item.Render(name)
	}
	def := safetext.Line(p.Definition, 0)
	if p.Kind != "" {
		def += " (" + safetext.Line(p.Kind, 10) + ")"
	}
	sched := "—"
	if p.Schedule != "" {
		sched = safetext.Line(p.Schedule, 0)
	}
	rest := kit.Pad(safetext.Line(def, 19), 20) + kit.Pad(fmt.Sprint(p.Revision), 5) +
		kit.PadLeft(fmt.Sprint(p.Tools), 5) + kit.PadLeft(fmt.Sprint(p.Skills), 7) + "  " + sched
	return cursor + name + st.Detail.Render(cut(rest, w-22))
}
