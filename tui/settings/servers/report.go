package servers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// Report runs a connection test of one saved server and shows what it
// found (SPEC B2, B3): protocol version, server name and version,
// capabilities, the summary, the valid tools and the rejected ones with
// their reasons, and how long it took — or the one sentence of why it
// failed. It registers nothing.
//
// Activation is offered, on its own key, only after a test that connected,
// and only for a server that is not active yet: the person has seen the
// report before anything registers. While the test runs, esc abandons it
// by cancelling its context, which the report keeps (like a chat run).
type Report struct {
	common  kit.Common
	keys    ReportKeyMap
	servers Backend
	server  settings.ServerView
	spin    spinner.Model

	run   *testRun // the test in flight, nil when none
	start tea.Cmd  // the first test's Cmd, returned by Init
	done  bool
	// report is the last test's answer; err its failure, one sentence.
	report TestView
	err    string

	activating  bool
	activated   bool
	activateErr string
}

// newReport returns a report whose Init starts testing v.
func newReport(c kit.Common, keys ReportKeyMap, s Backend, v settings.ServerView) Report {
	r := Report{
		common:  c,
		keys:    keys,
		servers: s,
		server:  v,
		spin:    spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(c.Styles.Modal.Prompt)),
	}
	r, r.start = r.test()
	r.syncKeys()
	return r
}

// test starts a test run with a context of its own.
func (r Report) test() (Report, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	r.run = &testRun{cancel: cancel}
	r.done, r.err, r.report = false, "", TestView{}
	r.activateErr = ""
	return r, tea.Batch(testServer(ctx, r.servers, r.run, r.server.ID), r.spin.Tick)
}

// Init implements Modal.
func (r Report) Init() tea.Cmd { return r.start }

// KeyGrace implements Modal: the report opens on the person's own key, and
// activate is disabled until the answer is on screen.
func (r Report) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (r Report) ShortHelp() []key.Binding {
	return []key.Binding{r.keys.Activate, r.keys.Retest, r.keys.Close}
}

// FullHelp implements help.KeyMap.
func (r Report) FullHelp() [][]key.Binding { return [][]key.Binding{r.ShortHelp()} }

// SetSize implements Modal.
func (r Report) SetSize(width, height int) kit.Modal {
	r.common = r.common.Sized(width, height)
	return r
}

// connected reports whether the last test finished and connected.
func (r Report) connected() bool { return r.done && r.err == "" }

// Update implements Modal.
func (r Report) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	r, action, cmd := r.handle(msg)
	r.syncKeys()
	return r, action, cmd
}

func (r Report) handle(msg tea.Msg) (Report, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case TestedMsg:
		if msg.run != r.run {
			return r, nil, nil // an abandoned test
		}
		r.run.cancel()
		r.run, r.done = nil, true
		if msg.err != nil {
			r.err = kit.Sentence(msg.err)
		} else {
			r.report = msg.report
		}
		return r, nil, nil
	case ActiveMsg:
		if !r.activating || msg.id != r.server.ID {
			return r, nil, nil
		}
		r.activating = false
		if msg.err != nil {
			r.activateErr = kit.Sentence(msg.err)
			return r, nil, nil
		}
		r.activated, r.server.Active = true, true
		return r, nil, nil
	case spinner.TickMsg:
		if r.run == nil {
			return r, nil, nil
		}
		var cmd tea.Cmd
		r.spin, cmd = r.spin.Update(msg)
		return r, nil, cmd
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, r.keys.Close):
			if r.run != nil {
				r.run.cancel() // abandon the test
				r.run = nil
			}
			return r, kit.CloseModal{}, nil
		case key.Matches(msg, r.keys.Activate):
			r.activating, r.activateErr = true, ""
			return r, nil, setServerActive(r.servers, r.server.ID, r.server.Name, true)
		case key.Matches(msg, r.keys.Retest):
			var cmd tea.Cmd
			r, cmd = r.test()
			return r, nil, cmd
		}
	}
	return r, nil, nil
}

// syncKeys enables activate only after a test that connected, for a server
// that is not active (SPEC B2).
func (r *Report) syncKeys() {
	running := r.run != nil
	r.keys.Activate.SetEnabled(r.connected() && !r.server.Active && !r.activating)
	r.keys.Retest.SetEnabled(!running && !r.activating)
	if running {
		r.keys.Close.SetHelp(r.keys.Close.Help().Key, "abandon test")
	} else {
		r.keys.Close.SetHelp(r.keys.Close.Help().Key, "close")
	}
}

func (r Report) boxWidth() int { return min(r.common.Width-4, 76) }

// View implements Modal.
func (r Report) View() string {
	st := r.common.Styles.Modal
	w := kit.InnerWidth(st, r.boxWidth())
	head := []string{
		st.Title.Render(safetext.Line("Test › "+r.server.Name, w)),
		st.Detail.Render(safetext.Line(r.server.URL, w)),
		"",
	}
	var body, tail []string
	switch {
	case r.run != nil:
		body = []string{r.spin.View() + " " + st.Item.Render("Testing… nothing is registered by a test.")}
	case r.err != "":
		body = kit.WrapLines(st.Error, "✗ "+r.err, w, 4)
		tail = []string{"", st.Detail.Render("Nothing was registered. Fix the server or its settings, then test again.")}
	default:
		body, tail = r.reportLines(w), r.activationLines(w)
	}
	return kit.ModalBox(st, w, 0, r.fit(head, body, tail, w))
}

// fit keeps the report within the area the root gave it (SPEC L6): in a
// short one the blank lines go first, then the report's last lines, so
// the outcome and what activation would do always show.
func (r Report) fit(head, body, tail []string, w int) []string {
	room := max(r.common.Height-r.common.Styles.Modal.Frame.GetVerticalFrameSize(), 1)
	if len(head)+len(body)+len(tail) <= room {
		return append(append(head, body...), tail...)
	}
	drop := func(lines []string) []string {
		return slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return l == "" })
	}
	head, tail = drop(head), drop(tail)
	if n := max(room-len(head)-len(tail), 1); len(body) > n {
		body = append(body[:n-1:n-1], r.common.Styles.Modal.Detail.Render(kit.Cut("… a taller terminal shows the rest", w)))
	}
	return append(append(head, body...), tail...)
}

// reportField is the width of the report's labels.
const reportField = 14

// reportLines renders a test that connected, and what activation would do.
func (r Report) reportLines(w int) []string {
	st := r.common.Styles.Modal
	t := r.report
	field := func(label, value string) string {
		return st.Label.Render(kit.Pad(label, reportField)) + st.Item.Render(safetext.Line(value, w-reportField))
	}
	lines := []string{st.StatusOK.Render("● Connected in " + elapsed(t.Elapsed))}
	protocol := safetext.Line(t.ProtocolVersion, 0)
	if t.Stateless {
		protocol += " · stateless"
	}
	lines = append(lines, field("Protocol", protocol))
	lines = append(lines, field("Server", strings.TrimSpace(t.ServerName+" "+t.ServerVersion)))
	caps := strings.Join(t.Capabilities, ", ")
	if caps == "" {
		caps = "none"
	}
	lines = append(lines, field("Capabilities", caps), field("Summary", t.Summary))
	tools := "none"
	if len(t.Tools) > 0 {
		tools = strings.Join(t.Tools, ", ")
	}
	for i, l := range kit.WrapLines(st.Item, tools, w-reportField, 2) {
		label := ""
		if i == 0 {
			label = fmt.Sprintf("Tools (%d)", len(t.Tools))
		}
		lines = append(lines, st.Label.Render(kit.Pad(label, reportField))+l)
	}
	if n := len(t.Rejected); n > 0 {
		const shown = 3
		for i, rej := range t.Rejected {
			if i == shown {
				lines = append(lines, strings.Repeat(" ", reportField)+st.Detail.Render(fmt.Sprintf("…and %d more", n-shown)))
				break
			}
			label := ""
			if i == 0 {
				label = fmt.Sprintf("Rejected (%d)", n)
			}
			lines = append(lines, st.Label.Render(kit.Pad(label, reportField))+st.Error.Render(safetext.Line("✗ "+rej, w-reportField)))
		}
	}
	return lines
}

// activationLines say what activation did or would do.
func (r Report) activationLines(w int) []string {
	st := r.common.Styles.Modal
	lines := []string{""}
	act := r.keys.Activate.Help().Key
	switch {
	case r.activating:
		lines = append(lines, st.Detail.Render("Activating…"))
	case r.activateErr != "":
		lines = append(lines, kit.WrapLines(st.Error, "✗ "+r.activateErr, w, 2)...)
	case r.activated:
		lines = append(lines, st.StatusOK.Render("Activated: its tools are offered from now on."))
	case r.server.Active:
		lines = append(lines, st.Detail.Render("This server is active."))
	default:
		lines = append(lines, st.Detail.Render(fmt.Sprintf("Not active. Press %s to activate it and offer its tools.", act)))
	}
	return lines
}

// elapsed formats a test's duration: "340ms", "1.2s".
func elapsed(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// Keys returns the report's bindings as they stand, each enabled or not by
// state.
func (r Report) Keys() ReportKeyMap { return r.keys }

// Server is the server under test.
func (r Report) Server() settings.ServerView { return r.server }
