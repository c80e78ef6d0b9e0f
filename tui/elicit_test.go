package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tool"
	"vouch/tui/approval"
	"vouch/tui/apps"
	"vouch/tui/clipboard"
)

var keyCtrlS = tea.KeyMsg{Type: tea.KeyCtrlS}

// hostileAsk and askURL are what a hostile server asks (as mcptest's).
const (
	hostileAsk = "\x1b]0;pwned\x07Approve\x1b[2J \u202egnp.exe\u202c \x1b]52;c;ZXZpbA==\x07"
	askURL     = "https://auth.example.test/connect?session=42"
)

func fptr(v float64) *float64 { return &v }

// deployQuestion is a form with a text field (focused first), an integer,
// a boolean and an enum, with defaults.
func deployQuestion() tool.Question {
	return tool.Question{Server: "deploys", Host: "deploy.example.test", Tool: "deploy", CorrelationID: writeCall.CorrelationID,
		Message: "Deploy where?",
		Fields: []tool.Field{
			{Name: "who", Title: "Who", Kind: tool.KindText, Default: "ada", Required: true},
			{Name: "count", Title: "Count", Kind: tool.KindInteger, Default: 3.0, Min: fptr(1), Max: fptr(9)},
			{Name: "dry", Title: "Dry run", Kind: tool.KindBoolean, Default: true},
			{Name: "env", Title: "Environment", Kind: tool.KindEnum, Default: "dev",
				Options: []tool.Option{{Value: "dev", Label: "Development"}, {Value: "prod", Label: "Production"}}},
		}}
}

// elicitRig is the form pane as a rig of the keyboard corpus (SPEC B12,
// D7): a reply that ends in a question makes the person type, just before
// the tool asks. Answering is ctrl+s with the defaults.
func elicitRig(q tool.Question) func(*testing.T, *clock) paneRig {
	return func(t *testing.T, clk *clock) paneRig {
		b := newFakeBackend()
		m := startModel(t, b, Options{Now: clk.Now})
		m, wait := sendText(t, m, "deploy it")
		m, wait = deliver(t, m, b, wait, agent.TextDelta{Text: "Which environment do you want? Tell me more."})
		reply := make(chan tool.Answer, 4)
		return paneRig{m: m, before: true,
			appear: func(t *testing.T, m Model) Model {
				m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: writeCall}, agent.InputRequested{Question: q, Reply: reply})
				return m
			},
			waiting: func(m Model) bool {
				_, ok := m.modals.top().(approval.ElicitPane)
				return ok && len(reply) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyCtrlS)
				if cmd == nil || !awaitMsg[approval.AnswerSentMsg](t, cmd).Sent {
					return false
				}
				a := <-reply
				return a.Action == tool.Accept && a.Content["who"] == "ada" && a.Content["count"] == int64(3) && a.Content["env"] == "dev"
			},
		}
	}
}

// TestElicitKeyboardCorpus runs the keyboard corpus of SPEC D7 against the
// form pane: type-ahead and pauses across its appearance decide nothing;
// tab, a quiet moment and ctrl+s send.
func TestElicitKeyboardCorpus(t *testing.T) {
	rig := elicitRig(deployQuestion())
	for _, rate := range []int{5, 10, 15} {
		for _, pause := range []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 5 * time.Second} {
			t.Run(fmt.Sprintf("%dkeys/pause=%v", rate, pause), func(t *testing.T) {
				corpus(t, rig, time.Second/time.Duration(rate), pause)
			})
		}
	}
	t.Run("slow typist", func(t *testing.T) { corpus(t, rig, 500*time.Millisecond, 0) })
}

// settled is the rig's pane shown to an idle person, settled.
func settled(t *testing.T, q tool.Question) (Model, *clock, chan tool.Answer) {
	t.Helper()
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, wait := sendText(t, m, "deploy it")
	m = pauseFor(m, clk, 2500*time.Millisecond)
	reply := make(chan tool.Answer, 4)
	m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: writeCall}, agent.InputRequested{Question: q, Reply: reply})
	m = pauseFor(m, clk, 1500*time.Millisecond)
	if _, ok := m.modals.top().(approval.ElicitPane); !ok || held(m) {
		t.Fatalf("the pane is not on top and settled: %T held %v", m.modals.top(), held(m))
	}
	return m, clk, reply
}

func pane(m Model) approval.ElicitPane { return m.modals.top().(approval.ElicitPane) }

func pressKeys(m Model, keys ...tea.KeyMsg) Model {
	for _, k := range keys {
		m, _ = update(m, k)
	}
	return m
}

// TestElicitTypedValueSent covers SPEC B12: the first field has the
// keyboard once the pane is the person's; text goes into it (the pane's
// letters too), enter moves on, space toggles the boolean, down and space
// pick an enum, and only ctrl+s sends what was typed.
func TestElicitTypedValueSent(t *testing.T) {
	m, _, reply := settled(t, deployQuestion())
	v := m.View()
	for _, s := range []string{"deploys (deploy.example.test)", "Deploy where?", "Who *", "(text)", "Count", "(integer, 1 to 9)", "[x] yes", "(x) Development", "Decline"} {
		if !strings.Contains(v, s) {
			t.Errorf("the pane does not show %q:\n%s", s, v)
		}
	}
	// Replace the default "ada" by "cocoa": backspaces, then letters that
	// are other panes' keys (c, o, a).
	m = pressKeys(m, tea.KeyMsg{Type: tea.KeyBackspace}, tea.KeyMsg{Type: tea.KeyBackspace}, tea.KeyMsg{Type: tea.KeyBackspace})
	m = typeText(m, "cocoa")
	if got := pane(m).Value(0); got != "cocoa" {
		t.Fatalf("field = %q, want the typed text", got)
	}
	if got := m.input.Value(); got != "" {
		t.Errorf("the chat input got %q", got)
	}
	m = pressKeys(m, keyEnter) // next field: Count
	if len(reply) != 0 || pane(m).Focus() != 1 {
		t.Fatalf("enter sent or did not move on (focus %d)", pane(m).Focus())
	}
	m = pressKeys(m, keyTab, keyRune(' '))                                // Dry run: off
	m = pressKeys(m, keyTab, tea.KeyMsg{Type: tea.KeyDown}, keyRune(' ')) // Environment: prod
	_, cmd := update(m, keyCtrlS)
	if !awaitMsg[approval.AnswerSentMsg](t, cmd).Sent {
		t.Fatal("ctrl+s sent nothing")
	}
	a := <-reply
	if a.Action != tool.Accept || a.Content["who"] != "cocoa" || a.Content["count"] != int64(3) || a.Content["dry"] != false || a.Content["env"] != "prod" {
		t.Errorf("sent %+v", a)
	}
}

// TestElicitInvalidNotSent covers SPEC B12: an integer out of range is
// said next to the field as it is typed, and ctrl+s sends nothing.
func TestElicitInvalidNotSent(t *testing.T) {
	m, _, reply := settled(t, deployQuestion())
	m = pressKeys(m, keyTab, tea.KeyMsg{Type: tea.KeyBackspace})
	m = typeText(m, "12")
	if v := m.View(); !strings.Contains(v, "Type at most 9") {
		t.Errorf("the pane does not say what is wrong:\n%s", v)
	}
	m, cmd := update(m, keyCtrlS)
	if cmd != nil || len(reply) != 0 {
		t.Fatal("ctrl+s sent an invalid form")
	}
	if !strings.Contains(m.View(), "Not sent") || pane(m).Focus() != 1 {
		t.Errorf("the pane does not say it was not sent, or the focus is not on the field (%d)", pane(m).Focus())
	}
}

// TestElicitDeclineAndCancel covers SPEC B12: esc cancels; enter on the
// Decline button declines.
func TestElicitDeclineAndCancel(t *testing.T) {
	m, _, reply := settled(t, deployQuestion())
	_, cmd := update(m, keyEsc)
	if !awaitMsg[approval.AnswerSentMsg](t, cmd).Sent || (<-reply).Action != tool.Cancel {
		t.Error("esc did not cancel")
	}
	m, _, reply = settled(t, deployQuestion())
	m = pressKeys(m, tea.KeyMsg{Type: tea.KeyShiftTab}) // from the first field back to Decline
	_, cmd = update(m, keyEnter)
	if !awaitMsg[approval.AnswerSentMsg](t, cmd).Sent || (<-reply).Action != tool.Decline {
		t.Error("enter on Decline did not decline")
	}
}

// TestElicitPasteFillsNeverSends covers SPEC D7 for the form: a bracketed
// paste with a line break goes into the focused field as one line, and
// sends nothing.
func TestElicitPasteFillsNeverSends(t *testing.T) {
	m, _, reply := settled(t, deployQuestion())
	m = pressKeys(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" x\r\x1b[2J"), Paste: true})
	if len(reply) != 0 {
		t.Fatal("a paste sent the form")
	}
	if got := pane(m).Value(0); got != "ada x [2J" {
		t.Errorf("field = %q, want the paste as one line, controls dropped", got)
	}
}

// TestElicitSecretFieldFlagged covers SPEC B12: a field asking for a
// token is marked and the Decline button has the focus, so no key sends.
func TestElicitSecretFieldFlagged(t *testing.T) {
	q := deployQuestion()
	q.Fields = append(q.Fields, tool.Field{Name: "token", Title: "API token", Kind: tool.KindText, Secret: true})
	m, _, reply := settled(t, q)
	if v := m.View(); !strings.Contains(v, approval.SecretWarning) {
		t.Errorf("the pane does not flag the secret:\n%s", v)
	}
	if pane(m).Focus() != len(q.Fields) {
		t.Errorf("focus = %d, want the Decline button", pane(m).Focus())
	}
	_, cmd := update(m, keyEnter)
	if !awaitMsg[approval.AnswerSentMsg](t, cmd).Sent || (<-reply).Action != tool.Decline {
		t.Error("enter did not decline")
	}
}

// TestElicitHostileTextInert covers SPEC D3 for the pane: the server's
// control sequences and bidi overrides never reach the screen.
func TestElicitHostileTextInert(t *testing.T) {
	q := deployQuestion()
	q.Message, q.Server, q.Fields[3].Options[0].Label = hostileAsk, hostileAsk, hostileAsk
	m, _, _ := settled(t, q)
	v := m.View()
	if strings.Contains(v, "\x1b]") || strings.Contains(v, "\x1b[2J") || strings.ContainsRune(v, '\u202e') || strings.ContainsRune(v, '\a') {
		t.Errorf("hostile text reached the screen: %q", v)
	}
}

// TestElicitURL covers SPEC B12's URL mode: the URL whole with its host
// emphasised, c copies it (OSC 52), o without a browser copies and says
// so, enter is done; nothing is fetched (the fake backend has no opener).
func TestElicitURL(t *testing.T) {
	q := tool.Question{Server: "deploys", Host: "127.0.0.1", Tool: "connect", CorrelationID: writeCall.CorrelationID,
		Message: "Connect your account.", URL: askURL, ElicitationID: "el-1"}
	m, _, reply := settled(t, q)
	v := m.View()
	if !strings.Contains(v, askURL) || !strings.Contains(v, "auth.example.test") {
		t.Errorf("the URL is not shown whole:\n%s", v)
	}
	m, cmd := update(m, keyRune('c'))
	if msg := awaitMsg[clipboard.CopiedMsg](t, cmd); msg.Err != nil {
		t.Fatalf("copy: %v", msg.Err)
	}
	if _, ok := m.modals.top().(approval.ElicitPane); !ok || len(reply) != 0 {
		t.Fatal("c answered the question")
	}
	m, cmd = update(m, keyRune('o'))
	awaitMsg[clipboard.CopiedMsg](t, cmd)
	if !strings.Contains(m.status.notice, "VOUCH_BROWSER") {
		t.Errorf("status = %q", m.status.notice)
	}
	_, cmd = update(m, keyEnter)
	if !awaitMsg[approval.AnswerSentMsg](t, cmd).Sent || (<-reply).Action != tool.Accept {
		t.Error("enter did not say done")
	}
}

// TestElicitClosedByServer covers SPEC B12: when the server closes the
// question (notifications/elicitation/complete, or the call ended), the
// pane closes and the call's item says why.
func TestElicitClosedByServer(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, wait := sendText(t, m, "deploy it")
	reply := make(chan tool.Answer, 1)
	m, wait = deliver(t, m, b, wait, agent.ToolCallStarted{Call: writeCall}, agent.InputRequested{Question: deployQuestion(), Reply: reply})
	if _, ok := m.modals.top().(approval.ElicitPane); !ok {
		t.Fatal("no pane")
	}
	m, _ = deliver(t, m, b, wait, agent.InputNoted{CorrelationID: writeCall.CorrelationID, Text: "the server said the step is complete"})
	if !m.modals.empty() {
		t.Fatalf("the pane stayed: %T", m.modals.top())
	}
	if it := m.chat.FindTool(writeCall); it == nil || it.Note != "the server said the step is complete" {
		t.Errorf("the call's item = %+v", it)
	}
}

// openerBackend is a Backend that opens URLs (VOUCH_BROWSER configured).
type openerBackend struct {
	*fakeBackend
	opened chan string
}

func (o openerBackend) OpenURL(_ context.Context, url string) (bool, error) {
	o.opened <- url
	return true, nil
}

// TestElicitURLOpens covers SPEC B12: o opens the URL with the configured
// browser, only when the person presses it, and answers nothing.
func TestElicitURLOpens(t *testing.T) {
	clk := &clock{now: t0}
	b := openerBackend{fakeBackend: newFakeBackend(), opened: make(chan string, 1)}
	m := startBackend(t, b, Options{Now: clk.Now})
	m, wait := sendText(t, m, "connect")
	m = pauseFor(m, clk, 2500*time.Millisecond)
	reply := make(chan tool.Answer, 1)
	q := tool.Question{Server: "deploys", Message: "Connect.", URL: askURL, ElicitationID: "e1", CorrelationID: writeCall.CorrelationID}
	m, _ = deliver(t, m, b.fakeBackend, wait, agent.ToolCallStarted{Call: writeCall}, agent.InputRequested{Question: q, Reply: reply})
	m = pauseFor(m, clk, 1500*time.Millisecond)
	if len(b.opened) != 0 {
		t.Fatal("the URL was opened before the person asked")
	}
	m, cmd := update(m, keyRune('o'))
	awaitMsg[apps.OpenedMsg](t, cmd)
	if got := <-b.opened; got != askURL {
		t.Errorf("opened %q", got)
	}
	if _, ok := m.modals.top().(approval.ElicitPane); !ok || len(reply) != 0 {
		t.Error("o answered the question")
	}
}

// TestElicitDeclinedSaid covers SPEC B12's bad input: a form vouch cannot
// show is declined without a pane, and the reason is shown on the call
// and the status line.
func TestElicitDeclinedSaid(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "deploy it")
	why := `vouch declined the server's form: field "address" is a nested object, which vouch cannot show.`
	m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: writeCall}, agent.InputNoted{CorrelationID: writeCall.CorrelationID, Text: why, Declined: true})
	if !m.modals.empty() {
		t.Fatalf("a pane opened: %T", m.modals.top())
	}
	if it := m.chat.FindTool(writeCall); it == nil || it.Note != why {
		t.Errorf("the call's item = %+v", it)
	}
	if !strings.Contains(m.View(), "nested object") {
		t.Errorf("the screen does not say why:\n%s", m.View())
	}
}
