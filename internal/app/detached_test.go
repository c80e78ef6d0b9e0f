package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/store"
)

// detachedWait bounds how long a test waits for a detached run.
const detachedWait = 10 * time.Second

// detachedSetup opens an app on a fresh state dir over a scripted model
// and returns it with its workspace and a chat config on the model.
func detachedSetup(t *testing.T, script agenttest.Script) (*App, string, ChatConfig) {
	t.Helper()
	model := agenttest.New(script, agenttest.WithModels("m"))
	t.Cleanup(model.Close)
	ws := t.TempDir()
	a, err := Open(context.Background(), t.TempDir(), ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	cfg := a.ChatConfig()
	cfg.ModelURL, cfg.Model = model.URL(), "m"
	return a, ws, cfg
}

func waitDone(t *testing.T, run DetachedRun) {
	t.Helper()
	select {
	case <-run.Done:
	case <-time.After(detachedWait):
		t.Fatal("the detached run did not end")
	}
}

// TestStartDetachedOwnConversation (SPEC K4, M; issue 15): a plain
// detached run writes its task and answer to a new conversation of its
// own, recorded as a headless run of that conversation; the current
// conversation — the one the interface shows — stays current and empty.
func TestStartDetachedOwnConversation(t *testing.T) {
	a, _, cfg := detachedSetup(t, agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Detached answer.")}}})
	cur, curT := a.Current()
	run, err := a.StartDetached(t.Context(), cfg, "hello", NewInbox(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if run.ID == "" || run.ConversationID == "" || run.ConversationID == cur {
		t.Fatalf("StartDetached = %+v; want a run ID and a conversation other than the current %s", run, cur)
	}
	waitDone(t, run)
	if now, _ := a.Current(); now != cur {
		t.Fatalf("the current conversation changed from %s to %s", cur, now)
	}
	if msgs, err := curT.Messages(t.Context()); err != nil || len(msgs) != 0 {
		t.Fatalf("the current conversation got %d messages (%v); want none", len(msgs), err)
	}
	msgs, err := (&storeTranscript{db: a.db, convID: run.ConversationID}).Messages(t.Context())
	if err != nil || len(msgs) < 2 || !strings.Contains(msgs[len(msgs)-1].Content, "Detached answer.") {
		t.Fatalf("the run's conversation holds %+v (%v); want the task and the answer", msgs, err)
	}
	r, err := a.db.Run(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != store.RunHeadless || r.Outcome != store.RunDone || r.ConversationID != run.ConversationID {
		t.Fatalf("run record %+v; want a headless run done in conversation %s", r, run.ConversationID)
	}
}

// writeScript is a model that writes notes.md, then says so.
func writeScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Written.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"notes.md","content":"kept\n"}`)}},
	}}
}

// waitCount waits for the inbox to count n waiting calls.
func waitCount(t *testing.T, ib *Inbox, n int) {
	t.Helper()
	timeout := time.After(detachedWait)
	for len(ib.Pending()) != n {
		select {
		case <-ib.Changes():
		case <-timeout:
			t.Fatalf("the inbox holds %d calls; want %d", len(ib.Pending()), n)
		}
	}
}

// TestStartDetachedApprovalWaitsInInbox (SPEC H6, D4, K4; issue 15): a
// detached run's call that needs approval waits in the inbox as a
// background run's does — Kind "detached", the deadline profile runs
// have — executing nothing and keeping the session needed; the person's
// answer reaches the run, which then writes and ends.
func TestStartDetachedApprovalWaitsInInbox(t *testing.T) {
	a, ws, cfg := detachedSetup(t, writeScript())
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ib := NewInbox()
	run, err := a.StartDetached(t.Context(), cfg, "write the notes", ib, func() time.Time { return at })
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, ib, 1)
	it := ib.Pending()[0]
	if it.RunID != run.ID || it.Kind != DetachedKind || it.Task != "write the notes" || it.Call.Identity != "builtin:fs_write" ||
		!it.Requested.Equal(at) || !it.Deadline.Equal(at.Add(defaultApprovalWait)) {
		t.Fatalf("inbox item %+v; want run %s's fs_write, kind detached, due %s", it, run.ID, at.Add(defaultApprovalWait))
	}
	note := filepath.Join(ws, "notes.md")
	if _, err := os.Stat(note); !os.IsNotExist(err) {
		t.Fatalf("the call ran before anyone answered: %v", err)
	}
	if n, err := a.SessionNeeds(); err != nil || n.Running != 1 {
		t.Fatalf("SessionNeeds = %+v, %v; want the waiting run counted", n, err)
	}
	if err := ib.Answer(it.RunID, it.Call.CorrelationID, agent.Decision{Allow: true}); err != nil {
		t.Fatal(err)
	}
	waitDone(t, run)
	if got, err := os.ReadFile(note); err != nil || string(got) != "kept\n" {
		t.Fatalf("after allowing, notes.md = %q, %v", got, err)
	}
	if r, err := a.db.Run(run.ID); err != nil || r.Outcome != store.RunDone {
		t.Fatalf("run %+v, %v; want done", r, err)
	}
	if n, err := a.SessionNeeds(); err != nil || n.Running != 0 {
		t.Fatalf("SessionNeeds after the run = %+v, %v; want nothing running", n, err)
	}
}

// TestStartDetachedDeadline (SPEC H6; issue 15): nobody answers by the
// deadline: the run stops, recorded waiting for approval, nothing
// executed, and its call leaves the inbox.
func TestStartDetachedDeadline(t *testing.T) {
	a, ws, cfg := detachedSetup(t, writeScript())
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ib := NewInbox()
	run, err := a.StartDetached(t.Context(), cfg, "write the notes", ib, func() time.Time { return at })
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, ib, 1)
	if next := ib.expire(at.Add(defaultApprovalWait - time.Second)); !next.Equal(at.Add(defaultApprovalWait)) {
		t.Fatalf("before the deadline expire says next %s", next)
	}
	ib.expire(at.Add(defaultApprovalWait))
	waitDone(t, run)
	if len(ib.Pending()) != 0 {
		t.Fatalf("the inbox still holds %+v", ib.Pending())
	}
	r, err := a.db.Run(run.ID)
	if err != nil || r.Outcome != store.RunWaitingApproval || !strings.Contains(r.Error, "nothing was executed") {
		t.Fatalf("run %+v, %v; want waiting-approval, nothing executed", r, err)
	}
	if _, err := os.Stat(filepath.Join(ws, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("the call ran after its deadline: %v", err)
	}
}

// TestStartDetachedUnreachable (issue 15): with the model server down
// the run does not start, says so, and leaves no empty conversation.
func TestStartDetachedUnreachable(t *testing.T) {
	a, _, cfg := detachedSetup(t, agenttest.Script{})
	cfg.ModelURL = "http://127.0.0.1:1"
	before, err := a.db.Conversations()
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.StartDetached(t.Context(), cfg, "hello", NewInbox(), time.Now)
	if KindOf(err) != Unavailable {
		t.Fatalf("StartDetached = %v; want Unavailable", err)
	}
	after, err := a.db.Conversations()
	if err != nil || len(after) != len(before) {
		t.Fatalf("conversations %d before, %d after (%v); want none added", len(before), len(after), err)
	}
}
