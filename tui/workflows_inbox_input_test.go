package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/tool"
	"vouch/tui/approval"
)

// inboxQuestion is a server's question of a scheduled run, waiting in the
// inbox (SPEC B12, H6), its message hostile.
func inboxQuestion(now time.Time) approval.InboxItem {
	q := tool.Question{Server: "deploys", Host: "127.0.0.1:9", Tool: "deploy", CorrelationID: "c-q",
		Message: "Deploy where?\x1b]52;c;aGk=\x07", Fields: []tool.Field{{Name: "env", Title: "Environment", Kind: tool.KindText, Required: true}}}
	return approval.InboxItem{RunID: "r-200", Profile: "nightly", Kind: "scheduled", Task: "deploy the site",
		Requested: now.Add(-time.Minute), Deadline: now.Add(29 * time.Minute),
		Call: agent.ToolCall{CorrelationID: "c-q"}, Question: &q}
}

// TestInboxQuestionAnsweredFromTheInbox (SPEC B12, H6, D7; issue 26): a
// scheduled run's question is listed as input, opens in the same form pane
// as a chat's question, naming its run, under the keyboard rule; ctrl+s
// sends the typed value to that run through the Inbox — once — and the
// inbox reloads without it; ctrl+c goes back to the inbox without
// answering; an answer that no longer reaches the run is one sentence.
func TestInboxQuestionAnsweredFromTheInbox(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	clkNow := time.Now()
	f.items = append([]approval.InboxItem{inboxQuestion(clkNow)}, f.items...)
	m, clk := openInboxAt(t, f)
	if v := flat(m.View()); !strings.Contains(v, "input · deploys asks during deploy") {
		t.Fatalf("the inbox does not list the question as input:\n%s", m.View())
	}
	m, _ = update(m, keyEnter)
	p := topModal[approval.ElicitPane](t, m)
	if b := p.Request().Background; b == nil || b.ID != "r-200" || p.Request().Reply != nil {
		t.Fatalf("the pane's request is %+v, want the background run r-200 and no reply channel", p.Request())
	}
	v := m.View()
	if !strings.Contains(v, "background run r-200 of profile nightly") || !strings.Contains(v, "Deploy where?") {
		t.Errorf("the pane does not name the run or the question:\n%s", v)
	}
	if strings.Contains(v, "\x1b]52") {
		t.Errorf("the server's message reached the screen raw")
	}

	// ctrl+c: back to the inbox; the question still waits.
	clk.advance(time.Second)
	if held(m) {
		t.Fatal("a question the person opened from the inbox waits for tab")
	}
	m, cmd := update(m, keyCtrlC)
	if _, ok := m.modals.top().(approval.InboxList); !ok {
		t.Fatalf("ctrl+c: top = %T, want the inbox", m.modals.top())
	}
	m, _ = update(m, awaitMsg[approval.InboxMsg](t, cmd))
	if in := f.sentInputs(); len(in) != 0 {
		t.Fatalf("going back answered: %+v", in)
	}

	m, _ = update(m, keyEnter)
	clk.advance(time.Second)
	if held(m) {
		t.Fatal("a question the person opened from the inbox waits for tab")
	}
	m = typeText(m, "staging")
	m, cmd = update(m, keyCtrlS)
	if _, ok := m.modals.top().(approval.InboxList); !ok {
		t.Fatalf("after sending, top = %T, want the inbox", m.modals.top())
	}
	m, cmd = update(m, awaitMsg[approval.InboxInputMsg](t, cmd))
	m, _ = update(m, awaitMsg[approval.InboxMsg](t, cmd))
	if in := f.sentInputs(); len(in) != 1 || in[0].run != "r-200" || in[0].correlation != "c-q" ||
		in[0].answer.Action != tool.Accept || in[0].answer.Content["env"] != "staging" {
		t.Fatalf("answers sent = %+v, want one accept of env=staging for r-200", in)
	}
	in := topModal[approval.InboxList](t, m)
	for _, it := range in.Items() {
		if it.Question != nil {
			t.Errorf("the answered question is still listed: %+v", it)
		}
	}
	if !strings.Contains(flat(m.View()), "Answered the server") {
		t.Errorf("no notice of the answer:\n%s", m.View())
	}

	// A question that stopped waiting: one sentence.
	f.mu.Lock()
	f.answerErr = errors.New("that question no longer waits")
	f.items = append(f.items, inboxQuestion(clkNow))
	f.mu.Unlock()
	m, cmd = update(m, keyRune('r'))
	m, _ = update(m, awaitMsg[approval.InboxMsg](t, cmd))
	for range in.Items() {
		m, _ = update(m, keyDown)
	}
	m, _ = update(m, keyEnter)
	if _, ok := m.modals.top().(approval.ElicitPane); !ok {
		t.Fatalf("top = %T, want the question pane", m.modals.top())
	}
	clk.advance(time.Second)
	if held(m) {
		t.Fatal("a question the person opened from the inbox waits for tab")
	}
	m = typeText(m, "prod")
	m, cmd = update(m, keyCtrlS)
	m, _ = update(m, awaitMsg[approval.InboxInputMsg](t, cmd))
	if !strings.Contains(flat(m.View()), "The answer did not reach the run: that question no longer waits.") {
		t.Errorf("no error sentence:\n%s", m.View())
	}
}

// sentInputs is a copy of the answers to questions the fake received.
func (f *fakeWorkflows) sentInputs() []inboxInput {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.inputs)
}
