package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
)

// profileList is the Profiles page of Settings › Tools & Workflows (SPEC
// H2, L2): every Agent Profile with its definition, revision, tool and
// skill counts and schedule. n opens the profile editor for a new profile,
// enter for the one under the cursor, t its tool selection pane; g runs it
// now in the background, after asking for the task, when the backend is a
// ProfileRunner; x removes it after a confirmation whose default is
// Cancel. The panes above it reload the list when they close (reveal).
type profileList struct {
	pageFrame
	loads
	common   Common
	keys     ProfileListKeyMap
	profiles Profiles
	runner   ProfileRunner // nil: profiles cannot run from here

	list listCursor[ProfileSummary]
}

func newProfileList(c Common, p Profiles) profileList {
	l := profileList{common: c, keys: c.Keys.Workflow.Profiles, profiles: p}
	if r, ok := p.(ProfileRunner); ok {
		l.runner = r
	}
	l.syncKeys()
	return l
}

func (l profileList) title() string { return "Profiles" }

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

func (l profileList) setSize(width, height int) settingsPage {
	l.resize(width, height)
	return l
}

func (l profileList) focus() (settingsPage, tea.Cmd) {
	l.active = true
	l, cmd := l.reload()
	return l, cmd
}

func (l profileList) reload() (profileList, tea.Cmd) {
	if l.profiles == nil {
		return l, nil
	}
	return l, listProfiles(l.profiles, l.begin())
}

func (l profileList) blur() settingsPage {
	l.active = false
	return l
}

func (l profileList) update(msg tea.Msg) (settingsPage, Action, tea.Cmd) {
	l, action, cmd := l.handle(msg)
	l.syncKeys()
	return l, action, cmd
}

func (l profileList) handle(msg tea.Msg) (profileList, Action, tea.Cmd) {
	switch msg := msg.(type) {
	case profilesMsg:
		if l.settle(msg.seq, msg.err) {
			l.list.set(msg.profiles, func(a, b ProfileSummary) bool { return a.Name == b.Name })
		}
		return l, nil, nil
	case profileRemovedMsg:
		if msg.err != nil {
			l.err, l.notice = sentence(msg.err), ""
			return l, nil, nil
		}
		l.err, l.notice = "", "Removed "+safetext.Line(msg.name, 40)+"; its past runs stay in the run history."
		l, cmd := l.reload()
		return l, nil, cmd
	case profileRunMsg:
		if msg.err == nil {
			l.err, l.notice = "", fmt.Sprintf("Started run %s of %s in the background; calls that need approval wait in the approvals inbox (%s).",
				safetext.Line(msg.runID, 40), safetext.Line(msg.profile, 40), l.common.Keys.Chat.Inbox.Help().Key)
		}
		return l, nil, nil
	case tea.KeyMsg:
		return l.key(msg)
	}
	return l, nil, nil
}

func (l profileList) key(msg tea.KeyMsg) (profileList, Action, tea.Cmd) {
	k := l.keys
	p, sel := l.list.selected()
	switch {
	case key.Matches(msg, k.Close):
		return l, CloseModal{}, nil
	case key.Matches(msg, k.Up):
		l.list.up()
	case key.Matches(msg, k.Down):
		l.list.down()
	case key.Matches(msg, k.Refresh):
		l.notice = ""
		l, cmd := l.reload()
		return l, nil, cmd
	case key.Matches(msg, k.New):
		l.notice = ""
		return l, OpenModal{Modal: newProfileEditor(l.common, l.profiles, "")}, nil
	case key.Matches(msg, k.Edit) && sel:
		l.notice = ""
		return l, OpenModal{Modal: newProfileEditor(l.common, l.profiles, p.Name)}, nil
	case key.Matches(msg, k.Tools) && sel:
		l.notice = ""
		return l, OpenModal{Modal: newProfileTools(l.common, l.profiles, p.Name)}, nil
	case key.Matches(msg, k.Run) && sel && l.runner != nil:
		l.notice = ""
		return l, OpenModal{Modal: newProfileRun(l.common, l.runner, p.Name)}, nil
	case key.Matches(msg, k.Remove) && sel:
		body := fmt.Sprintf("Remove the profile %s with its schedule? Its past runs stay in the run history.",
			safetext.Line(p.Name, 40))
		return l, OpenModal{Modal: newConfirm(l.common, "Remove profile", body, "Remove",
			removeProfile(l.profiles, p.Name))}, nil
	}
	return l, nil, nil
}

func (l *profileList) syncKeys() {
	k := &l.keys
	avail := l.profiles != nil
	_, sel := l.list.selected()
	k.Up.SetEnabled(len(l.list.items) > 1)
	k.Down.SetEnabled(len(l.list.items) > 1)
	k.New.SetEnabled(avail)
	k.Edit.SetEnabled(avail && sel)
	k.Tools.SetEnabled(avail && sel)
	k.Run.SetEnabled(avail && sel && l.runner != nil)
	k.Remove.SetEnabled(avail && sel)
	k.Refresh.SetEnabled(avail)
}

func (l profileList) view() string {
	st := l.common.Styles.Modal
	w := l.width
	if l.profiles == nil {
		return st.Detail.Render("Agent Profiles are not available here.")
	}
	foot := l.said(st, w)
	if foot == nil && l.loading && !l.loaded {
		foot = []string{st.Detail.Render("Loading profiles…")}
	}
	var body []string
	switch {
	case !l.loaded:
	case len(l.list.items) == 0:
		body = wrapLines(st.Detail, "No profiles yet. A profile ties a definition to a model, the tools it may "+
			"use, a workspace folder, skills and an optional schedule; n makes one.", w, 3)
	default:
		body = append(body, st.Label.Render(pad("  Profile", 22)+pad("Definition", 20)+pad("Rev", 5)+"Tools Skills  Schedule"))
		for i, p := range l.list.items {
			body = append(body, l.row(p, i == l.list.cursor, w))
		}
	}
	rows := max(l.height-len(foot), 1)
	if len(body) > rows {
		first := window(l.list.cursor, rows, len(body))
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
	name := pad(safetext.Line(p.Name, 19), 20)
	if focused {
		cursor = st.Prompt.Render("› ")
		name = pad(st.Selected.Render(safetext.Line(p.Name, 19)), 20)
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
	rest := pad(safetext.Line(def, 19), 20) + pad(fmt.Sprint(p.Revision), 5) +
		padLeft(fmt.Sprint(p.Tools), 5) + padLeft(fmt.Sprint(p.Skills), 7) + "  " + sched
	return cursor + name + st.Detail.Render(cut(rest, w-22))
}
