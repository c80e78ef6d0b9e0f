package runs

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/safetext"
	"vouch/tui/kit"
)

// runsPageSize is how many runs one ListRuns call asks for.
const runsPageSize = 50

// List is the run history pane (SPEC H7, L2): every run — chat,
// profile, scheduled, headless — newest first, a page at a time. Enter
// opens one (DetailPane) with what it froze, its tool calls, approvals,
// events and outcome; m fetches older runs.
type List struct {
	common  kit.Common
	keys    KeyMap
	detail  DetailKeyMap
	history History

	kit.Loads
	runs kit.ListCursor[Summary]
	next string // cursor of the next page, "" at the end
}

// New returns the pane; Init loads the newest page (load 1).
func New(c kit.Common, keys KeyMap, detail DetailKeyMap, h History) List {
	l := List{common: c, keys: keys, detail: detail, history: h, Loads: kit.Loads{Seq: 1, Loading: h != nil}}
	l.syncKeys()
	return l
}

// Init implements Modal.
func (l List) Init() tea.Cmd {
	if l.history == nil {
		return nil
	}
	return listRuns(l.history, l.Seq, "", runsPageSize)
}

// KeyGrace implements Modal: it opens on the person's own key.
func (l List) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (l List) ShortHelp() []key.Binding {
	k := l.keys
	return []key.Binding{k.Up, k.Down, k.Open, k.More, k.Refresh, k.Close}
}

// FullHelp implements help.KeyMap.
func (l List) FullHelp() [][]key.Binding {
	k := l.keys
	return [][]key.Binding{{k.Up, k.Down, k.Open}, {k.More, k.Refresh, k.Close}}
}

func (l List) boxWidth() int { return min(l.common.Width-4, 100) }

// SetSize implements Modal.
func (l List) SetSize(width, height int) kit.Modal {
	l.common = l.common.Sized(width, height)
	return l
}

// Update implements Modal.
func (l List) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	l, action, cmd := l.handle(msg)
	l.syncKeys()
	return l, action, cmd
}

func (l List) handle(msg tea.Msg) (List, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case PageMsg:
		if !l.Settle(msg.seq, msg.err) {
			return l, nil, nil
		}
		old := l.runs.Items
		if msg.cursor == "" {
			old = nil // a fresh first page
		}
		l.runs.Set(append(old[:len(old):len(old)], msg.page.Runs...), nil)
		l.next = msg.page.Next
		return l, nil, l.watch()
	case runsTickMsg:
		// Reload the first page unless another load came since the tick
		// was set, or the person has paged past it.
		if msg.seq != l.Seq || l.Loading || len(l.runs.Items) > runsPageSize {
			return l, nil, nil
		}
		return l, nil, listRuns(l.history, l.Begin(), "", runsPageSize)
	case tea.KeyMsg:
		k := l.keys
		switch {
		case key.Matches(msg, k.Close):
			return l, kit.CloseModal{}, nil
		case key.Matches(msg, k.Up):
			l.runs.Up()
		case key.Matches(msg, k.Down):
			l.runs.Down()
			if l.runs.Last() && l.next != "" && !l.Loading {
				return l.more()
			}
		case key.Matches(msg, k.More):
			return l.more()
		case key.Matches(msg, k.Refresh):
			return l, nil, listRuns(l.history, l.Begin(), "", runsPageSize)
		case key.Matches(msg, k.Open):
			if r, ok := l.runs.Selected(); ok {
				return l, kit.OpenModal{Modal: newDetailPane(l.common, l.detail, l.history, r)}, nil
			}
		}
	}
	return l, nil, nil
}

// runsRefreshEvery is how often the pane reloads while a run it shows is
// still going, so a run finishing shows without a key.
const runsRefreshEvery = 2 * time.Second

// runsTickMsg asks the pane to reload its first page; seq is the load it
// followed.
type runsTickMsg struct{ seq int }

// watch returns a tick when a run on the first page is still going (or
// waiting for the person), else nil.
func (l List) watch() tea.Cmd {
	if len(l.runs.Items) > runsPageSize {
		return nil
	}
	for _, r := range l.runs.Items {
		o := strings.ToLower(r.Outcome)
		if r.Ended.IsZero() && (o == "" || o == "running" || strings.HasPrefix(o, "waiting")) {
			seq := l.Seq
			return tea.Tick(runsRefreshEvery, func(time.Time) tea.Msg { return runsTickMsg{seq: seq} })
		}
	}
	return nil
}

// more fetches the page after the last run shown.
func (l List) more() (List, kit.Action, tea.Cmd) {
	if l.next == "" || l.Loading {
		return l, nil, nil
	}
	return l, nil, listRuns(l.history, l.Begin(), l.next, runsPageSize)
}

func (l *List) syncKeys() {
	k := &l.keys
	k.Up.SetEnabled(len(l.runs.Items) > 1)
	k.Down.SetEnabled(len(l.runs.Items) > 1)
	k.Open.SetEnabled(len(l.runs.Items) > 0)
	k.More.SetEnabled(l.next != "" && !l.Loading)
	k.Refresh.SetEnabled(l.history != nil)
}

// View implements Modal.
func (l List) View() string {
	st := l.common.Styles.Modal
	inner := kit.InnerWidth(st, l.boxWidth())
	height := l.common.Height - st.Frame.GetVerticalFrameSize()
	title := "Run history"
	if len(l.runs.Items) > 0 {
		more := ""
		if l.next != "" {
			more = "+"
		}
		title += fmt.Sprintf(" (%d%s)", len(l.runs.Items), more)
	}
	lines := []string{st.Title.Render(title)}
	var foot []string
	switch {
	case l.history == nil:
		lines = append(lines, st.Detail.Render("The run history is not available here."))
	case l.Err != "":
		foot = kit.WrapLines(st.Error, "✗ "+l.Err, inner, 2)
	case l.Loading && !l.Loaded:
		foot = []string{st.Detail.Render("Loading runs…")}
	case l.Loading:
		foot = []string{st.Detail.Render("Loading…")}
	}
	var body []string
	if l.Loaded && len(l.runs.Items) == 0 {
		body = []string{st.Detail.Render("No runs yet: every chat turn, profile run and scheduled run is kept here.")}
	}
	if len(l.runs.Items) > 0 {
		body = append(body, st.Label.Render("  "+kit.Pad("Started", 10)+kit.Pad("Kind", 10)+kit.Pad("Profile", 18)+kit.Pad("Outcome", 18)+"Task"))
	}
	focus := 0
	for i, r := range l.runs.Items {
		if i == l.runs.Cursor {
			focus = len(body)
		}
		body = append(body, l.row(r, i == l.runs.Cursor, inner))
	}
	rows := max(height-len(lines)-len(foot), 1)
	if len(body) > rows {
		first := max(1, min(focus-rows/2, len(body)-rows+1))
		body = append(body[:1:1], body[first:first+rows-1]...)
	}
	lines = append(lines, body...)
	for len(lines) < height-len(foot) {
		lines = append(lines, "")
	}
	return kit.ModalBox(st, inner, height, append(lines, foot...))
}

// row renders one run on one line.
func (l List) row(r Summary, focused bool, w int) string {
	st := l.common.Styles.Modal
	cursor := "  "
	if focused {
		cursor = st.Prompt.Render("› ")
	}
	profile := r.Profile
	if profile == "" {
		profile = "—"
	}
	outcome := safetext.Line(r.Outcome, 17)
	switch {
	case r.Ended.IsZero() && r.Outcome == "":
		outcome = "running"
	case r.Outcome == "":
		outcome = "ended"
	}
	cells := kit.Pad(kit.Ago(l.common.Now(), r.Started), 10) + kit.Pad(safetext.Line(r.Kind, 9), 10) +
		kit.Pad(safetext.Line(profile, 17), 18)
	task := kit.FirstLine(r.Task, 0)
	text := cursor + st.Detail.Render(cells) + outcomeStyle(st, r.Outcome).Render(kit.Pad(outcome, 18))
	rest := max(w-2-10-10-18-18, 1)
	if focused {
		return text + st.Selected.Render(safetext.Line(task, rest))
	}
	return text + st.Item.Render(safetext.Line(task, rest))
}

// outcomeStyle colours an outcome by what it asks of the person; the word
// itself says the same without colour.
func outcomeStyle(st kit.ModalStyles, outcome string) lipgloss.Style {
	o := strings.ToLower(outcome)
	switch {
	case o == "done" || o == "ok":
		return st.StatusOK
	case strings.HasPrefix(o, "waiting"), o == "missed", o == "skipped", o == "cancelled":
		return st.StatusWarn
	case o == "failed" || strings.HasPrefix(o, "error"):
		return st.StatusBad
	}
	return st.Detail
}

// Runs returns the runs listed so far, newest first.
func (l List) Runs() []Summary { return append([]Summary(nil), l.runs.Items...) }

// Next is the cursor of the next page of older runs, "" at the end.
func (l List) Next() string { return l.next }

// Keys returns the bindings as they stand, each enabled or not by state.
func (l List) Keys() KeyMap { return l.keys }
