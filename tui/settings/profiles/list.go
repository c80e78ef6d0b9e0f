package profiles

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// List is the Profiles page of Settings › Tools & Workflows (SPEC
// H2, L2): every Agent Profile with its definition, revision, tool and
// skill counts and schedule. n opens the profile editor for a new profile,
// enter for the one under the cursor, t its tool selection pane; g runs it
// now in the background, after asking for the task, when the backend is a
// Runner; x removes it after a confirmation whose default is
// Cancel. The panes above it reload the list when they close (reveal).
type List struct {
	kit.PageFrame
	kit.Loads
	common   kit.Common
	keys     ListKeyMap
	all      KeyMap
	profiles Backend
	runner   Runner // nil: profiles cannot run from here

	list kit.ListCursor[Summary]
}

// New returns the page over p (nil: it says Agent Profiles are not
// available); it loads when focused. When p is also a Runner, g starts a
// profile now.
func New(c kit.Common, keys KeyMap, p Backend) List {
	l := List{common: c, keys: keys.List, all: keys, profiles: p}
	if r, ok := p.(Runner); ok {
		l.runner = r
	}
	l.syncKeys()
	return l
}

func (l List) Title() string { return "Profiles" }

// ShortHelp implements help.KeyMap.
func (l List) ShortHelp() []key.Binding {
	k := l.keys
	return []key.Binding{k.New, k.Edit, k.Tools, k.Run, k.Remove, k.Close}
}

// FullHelp implements help.KeyMap.
func (l List) FullHelp() [][]key.Binding {
	k := l.keys
	return [][]key.Binding{{k.Up, k.Down, k.Refresh}, {k.New, k.Edit, k.Tools, k.Run, k.Remove, k.Close}}
}

func (l List) SetSize(width, height int) settings.Page {
	l.Resize(width, height)
	return l
}

func (l List) Focus() (settings.Page, tea.Cmd) {
	l.Active = true
	l, cmd := l.reload()
	return l, cmd
}

func (l List) reload() (List, tea.Cmd) {
	if l.profiles == nil {
		return l, nil
	}
	return l, listProfiles(l.profiles, l.Begin())
}

func (l List) Blur() settings.Page {
	l.Active = false
	return l
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
			l.list.Set(msg.profiles, func(a, b Summary) bool { return a.Name == b.Name })
		}
		return l, nil, nil
	case RemovedMsg:
		if msg.err != nil {
			l.Err, l.Notice = kit.Sentence(msg.err), ""
			return l, nil, nil
		}
		l.Err, l.Notice = "", "Removed "+safetext.Line(msg.name, 40)+"; its past runs stay in the run history."
		l, cmd := l.reload()
		return l, nil, cmd
	case RunMsg:
		if msg.err == nil {
			l.Err, l.Notice = "", fmt.Sprintf("Started run %s of %s in the background; calls that need approval wait in the approvals inbox (%s).",
				safetext.Line(msg.runID, 40), safetext.Line(msg.profile, 40), l.all.Inbox.Help().Key)
		}
		return l, nil, nil
	case tea.KeyMsg:
		return l.key(msg)
	}
	return l, nil, nil
}

func (l List) key(msg tea.KeyMsg) (List, kit.Action, tea.Cmd) {
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
		return l, kit.OpenModal{Modal: NewEditor(l.common, l.all, l.profiles, "")}, nil
	case key.Matches(msg, k.Edit) && sel:
		l.Notice = ""
		return l, kit.OpenModal{Modal: NewEditor(l.common, l.all, l.profiles, p.Name)}, nil
	case key.Matches(msg, k.Tools) && sel:
		l.Notice = ""
		return l, kit.OpenModal{Modal: NewTools(l.common, l.all, l.profiles, p.Name)}, nil
	case key.Matches(msg, k.Run) && sel && l.runner != nil:
		l.Notice = ""
		return l, kit.OpenModal{Modal: newRunPrompt(l.common, l.all, l.runner, p.Name)}, nil
	case key.Matches(msg, k.Remove) && sel:
		body := fmt.Sprintf("Remove the profile %s with its schedule? Its past runs stay in the run history.",
			safetext.Line(p.Name, 40))
		return l, kit.OpenModal{Modal: kit.NewConfirm(l.common, l.all.Confirm, "Remove profile", body, "Remove",
			removeProfile(l.profiles, p.Name))}, nil
	}
	return l, nil, nil
}

func (l *List) syncKeys() {
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

func (l List) View() string {
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
func (l List) row(p Summary, focused bool, w int) string {
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
	return cursor + name + st.Detail.Render(kit.Cut(rest, w-22))
}
