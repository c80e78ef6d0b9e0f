package runs

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
)

// DetailPane is one run re-opened from the history (SPEC H7): its outcome,
// the specification it froze at start (profile and definition revisions,
// model, window, workspace, allowlist with wire names, skill versions with
// their content addresses, policy snapshot, budgets), every tool call with
// its correlation ID, every approval, and the event log. It scrolls; the
// text is laid out once per width.
type DetailPane struct {
	common  kit.Common
	keys    DetailKeyMap
	history History
	summary Summary

	detail  Detail
	loaded  bool
	err     string
	body    []string
	bodyW   int
	scroll  int
	loading bool
}

func newDetailPane(c kit.Common, keys DetailKeyMap, h History, r Summary) DetailPane {
	return DetailPane{common: c, keys: keys, history: h, summary: r, loading: h != nil}
}

// Init implements Modal: it loads the run.
func (d DetailPane) Init() tea.Cmd {
	if d.history == nil {
		return nil
	}
	return loadRun(d.history, d.summary.ID)
}

// KeyGrace implements Modal: it opens on the person's own key.
func (d DetailPane) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (d DetailPane) ShortHelp() []key.Binding {
	k := d.keys
	return []key.Binding{k.Up, k.PageDown, k.Top, k.Bottom, k.Close}
}

// FullHelp implements help.KeyMap.
func (d DetailPane) FullHelp() [][]key.Binding {
	k := d.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Top, k.Bottom, k.Close}}
}

func (d DetailPane) boxWidth() int { return min(d.common.Width-4, 100) }

func (d DetailPane) inner() int { return kit.InnerWidth(d.common.Styles.Modal, d.boxWidth()) }

// rows is how many body lines fit under the title.
func (d DetailPane) rows() int {
	return max(d.common.Height-d.common.Styles.Modal.Frame.GetVerticalFrameSize()-1, 1)
}

// SetSize implements Modal.
func (d DetailPane) SetSize(width, height int) kit.Modal {
	d.common = d.common.Sized(width, height)
	if d.loaded && d.bodyW != d.inner() {
		d.relayout()
	}
	d.clamp()
	return d
}

// Update implements Modal.
func (d DetailPane) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case DetailMsg:
		if msg.id != d.summary.ID || !d.loading {
			return d, nil, nil
		}
		d.loading = false
		if msg.err != nil {
			d.err = kit.Sentence(msg.err)
			return d, nil, nil
		}
		d.detail, d.loaded = msg.detail, true
		d.relayout()
	case tea.KeyMsg:
		k := d.keys
		switch {
		case key.Matches(msg, k.Close):
			return d, kit.CloseModal{}, nil
		default:
			d.scroll, _ = kit.ScrollKey(msg, kit.ScrollKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom}, d.scroll, d.rows(), len(d.body))
		}
		d.clamp()
	}
	return d, nil, nil
}

func (d *DetailPane) clamp() {
	d.scroll = max(min(d.scroll, len(d.body)-d.rows()), 0)
}

// View implements Modal.
func (d DetailPane) View() string {
	st := d.common.Styles.Modal
	inner := d.inner()
	title := "Run " + safetext.Line(d.summary.ID, 24)
	if d.summary.Profile != "" {
		title += " · " + safetext.Line(d.summary.Profile, 24)
	}
	title += " · " + safetext.Line(d.summary.Kind, 12)
	lines := []string{st.Title.Render(kit.Cut(title, inner))}
	switch {
	case d.history == nil:
		lines = append(lines, st.Detail.Render("The run history is not available here."))
	case d.err != "":
		lines = append(lines, kit.WrapLines(st.Error, "✗ "+d.err, inner, 3)...)
	case !d.loaded:
		lines = append(lines, st.Detail.Render("Loading the run…"))
	default:
		end := min(d.scroll+d.rows(), len(d.body))
		lines = append(lines, d.body[d.scroll:end]...)
		if end < len(d.body) {
			lines[len(lines)-1] = st.Detail.Render(fmt.Sprintf("… %d more lines (pgdn)", len(d.body)-end))
		}
	}
	return kit.ModalBox(st, inner, d.common.Height-st.Frame.GetVerticalFrameSize(), lines)
}

// relayout builds the body for the current width.
func (d *DetailPane) relayout() {
	st := d.common.Styles.Modal
	w := d.inner()
	d.bodyW = w
	r := d.detail
	now := d.common.Now()
	var out []string
	add := func(label, value string) {
		out = append(out, st.Label.Render(kit.Pad(label, 18))+st.Item.Render(safetext.Line(value, max(w-18, 1))))
	}
	head := func(s string) { out = append(out, "", st.Group.Render(s)) }

	outcome := r.Outcome
	if outcome == "" {
		outcome = "running"
	}
	out = append(out, outcomeStyle(st, r.Outcome).Render(safetext.Line(outcome, w)))
	if r.Err != "" {
		out = append(out, kit.WrapLines(st.Error, r.Err, w, 4)...)
	}
	add("Task", kit.FirstLine(r.Task, 0))
	started := "—"
	if !r.Started.IsZero() {
		started = r.Started.UTC().Format("2006-01-02 15:04:05 UTC") + " (" + kit.Ago(now, r.Started) + ")"
	}
	add("Started", started)
	if !r.Ended.IsZero() && !r.Started.IsZero() {
		add("Took", r.Ended.Sub(r.Started).Round(time.Millisecond).String())
	}

	s := r.Spec
	head("Frozen specification")
	if s.ProfileRevision > 0 {
		add("Profile revision", fmt.Sprint(s.ProfileRevision))
	}
	if s.Definition != "" {
		add("Definition", fmt.Sprintf("%s, revision %d", safetext.Line(s.Definition, 0), s.DefinitionRevision))
	}
	model := s.Model
	if s.ContextWindow > 0 {
		model += " · window " + kit.Tokens(s.ContextWindow)
	}
	if s.Temperature != "" {
		model += " · temperature " + s.Temperature
	}
	add("Model", model)
	ws := s.Workspace
	if ws == "" {
		ws = "—"
	}
	add("Workspace", ws)
	if s.Policy != "" {
		add("Policy", s.Policy)
	}
	for i, b := range s.Budgets {
		label := ""
		if i == 0 {
			label = "Budgets"
		}
		add(label, b)
	}
	out = append(out, st.Label.Render(fmt.Sprintf("Tools (%d)", len(s.Tools))))
	for _, t := range s.Tools {
		out = append(out, st.Item.Render(kit.Cut("  "+safetext.Line(t.WireName, 0)+" → "+safetext.Line(t.Identity, 0), w)))
	}
	out = append(out, st.Label.Render(fmt.Sprintf("Skills (%d, in prompt order)", len(s.Skills))))
	for i, sk := range s.Skills {
		text := fmt.Sprintf("  %d. %s %s %s", i+1, safetext.Line(sk.Name, 0), safetext.Line(sk.Version, 16), safetext.Line(sk.Digest, 0))
		out = append(out, st.Item.Render(kit.Cut(text, w)))
	}

	head(fmt.Sprintf("Tool calls (%d)", len(r.Calls)))
	for _, c := range r.Calls {
		text := fmt.Sprintf("%s  %s → %s  %s", safetext.Line(c.CorrelationID, 0), safetext.Line(c.WireName, 0),
			safetext.Line(c.Identity, 0), c.Duration.Round(time.Millisecond))
		out = append(out, st.Item.Render(kit.Cut(text, w)))
		out = append(out, outcomeStyle(st, c.Outcome).Render(kit.Cut("    "+safetext.Line(c.Outcome, 0), w)))
	}
	head(fmt.Sprintf("Approvals (%d)", len(r.Approvals)))
	for _, a := range r.Approvals {
		text := fmt.Sprintf("%s  %s  %s", safetext.Line(a.CorrelationID, 0), safetext.Line(a.Identity, 0), safetext.Line(a.Decision, 0))
		if a.Note != "" {
			text += " — note: " + safetext.Line(a.Note, 0)
		}
		out = append(out, st.Item.Render(kit.Cut(text, w)))
	}
	head(fmt.Sprintf("Events (%d)", len(r.Events)))
	for _, e := range r.Events {
		text := e.At.UTC().Format("15:04:05") + "  " + safetext.Line(e.Text, 0)
		out = append(out, st.Detail.Render(kit.Cut(text, w)))
	}
	d.body = strings.Split(strings.Join(out, "\n"), "\n")
}

// Body returns the run's lines as drawn, before scrolling.
func (d DetailPane) Body() []string { return append([]string(nil), d.body...) }

// Scroll is the first line of the body shown.
func (d DetailPane) Scroll() int { return d.scroll }
