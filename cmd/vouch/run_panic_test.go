package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"vouch/agent"

	"vouch/internal/panics"

	"vouch/agent/agenttest"
	"vouch/mcpclient"
	"vouch/store"
	"vouch/store/storetest"
	"vouch/tool"
	"vouch/tui"
	"vouch/workflow"
)

// brokenRead is fs_read with a bug: while broken is set its Call panics
// (an index out of range), else it answers. It stands in for any tool — built-in
// or a server's adapter — whose code panics on some input.
type brokenRead struct{ broken *atomic.Bool }

func (b brokenRead) Def() tool.Def {
	return tool.Def{Identity: agent.IdentityFSRead, Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (b brokenRead) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	if b.broken.Load() {
		var found []tool.Result
		return found[len(args)], nil // out of range: the bug
	}
	return tool.Result{Text: "file content"}, nil
}

// readScript reads a file once, then answers.
func readScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Read it.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_read", `{"path":"a.txt"}`)}},
	}}
}

// brokenSession is interfaceSession with the profile runner's tools
// including a brokenRead in place of fs_read: the session, backend and
// scheduler are the product's, only the tool is the test's.
func brokenSession(t *testing.T, modelURL string, broken *atomic.Bool) (*session, *backend, *scheduler) {
	t.Helper()
	s, err := openSession(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ib := newInbox()
	cfg := s.backendConfig()
	cfg.modelURL, cfg.model, cfg.workflows = modelURL, "m", newWorkflowsTUI(s, ib)
	b := newBackend(cfg)
	runner := s.profileRunner(b)
	runner.mcpTools = func(mcpclient.EffectFunc) []tool.Tool { return []tool.Tool{brokenRead{broken}} }
	sch := newScheduler(s.DB(), runner.start, s.readyFor(b), ib, time.Now)
	cfg.workflows.runNow = func(name, task string) (string, error) { return sch.runNow(t.Context(), name, task) }
	t.Cleanup(func() {
		sch.shutdown()
		ib.close()
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	mustDefinition(t, s.DB())
	mustProfile(t, s.DB(), workflow.Profile{Name: "reader", Definition: "notes", Tools: []string{agent.IdentityFSRead}})
	return s, b, sch
}

// wantFailedWithStack checks that run id is recorded failed with the
// internal error's sentence and that its events keep the stack.
func wantFailedWithStack(t *testing.T, db *store.DB, id string) {
	t.Helper()
	rec, err := db.Run(id)
	if err != nil {
		t.Fatal(err)
	}
	const sentence = "the run failed: an internal error in the tool fs_read; the stack is in the run's events — please report it"
	if rec.Outcome != store.RunFailed || rec.Error != sentence {
		t.Fatalf("history: outcome %q, error %q; want failed with %q", rec.Outcome, rec.Error, sentence)
	}
	evs, err := db.RunEvents(id)
	if err != nil {
		t.Fatal(err)
	}
	var stack bool
	for _, ev := range evs {
		if ev.Kind == store.EventError && strings.Contains(ev.Text, "index out of range") && strings.Contains(ev.Text, "brokenRead.Call") {
			stack = true
		}
	}
	if !stack {
		t.Fatalf("no event keeps the panic and its stack: %+v", evs)
	}
}

// TestProfileRunToolPanic: a profile run whose tool panics is recorded
// failed with one sentence and the stack in its events; the session goes
// on, and the next run of the same profile works (invariant: no input
// panics the process; SPEC H7).
func TestProfileRunToolPanic(t *testing.T) {
	model := agenttest.New(readScript(), agenttest.WithModels("m"))
	defer model.Close()
	var broken atomic.Bool
	broken.Store(true)
	s, b, sch := brokenSession(t, model.URL(), &broken)

	id, err := b.RunProfile(t.Context(), "reader", "read a.txt")
	if err != nil {
		t.Fatal(err)
	}
	sch.wait()
	wantFailedWithStack(t, s.DB(), id)

	broken.Store(false)
	id, err = b.RunProfile(t.Context(), "reader", "read a.txt")
	if err != nil {
		t.Fatal(err)
	}
	sch.wait()
	if rec, err := s.DB().Run(id); err != nil || rec.Outcome != store.RunDone {
		t.Fatalf("the next run: %+v, %v; want done", rec, err)
	}
}

// TestTUIProfileRunToolPanic drives the real Bubble Tea loop over the
// product's backend: g on the Profiles page starts a run whose tool
// panics; the interface keeps running, the run history shows the run
// failed with the sentence, and the program still quits normally.
func TestTUIProfileRunToolPanic(t *testing.T) {
	model := agenttest.New(readScript(), agenttest.WithModels("m"))
	defer model.Close()
	var broken atomic.Bool
	broken.Store(true)
	s, b, sch := brokenSession(t, model.URL(), &broken)

	tm := teatest.NewTestModel(t, tui.New(b, tui.Options{Model: "m"}), teatest.WithInitialTermSize(140, 40))
	wait := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte(what)) },
			teatest.WithDuration(eventually))
	}
	key := func(k tea.KeyType) { tm.Send(tea.KeyMsg{Type: k}) }
	wait("Type a message")
	key(tea.KeyCtrlX)
	for range 5 { // Servers, Tools, Policy, Skills, Workflows, then Profiles
		key(tea.KeyTab)
	}
	wait("g run now")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")})
	wait("Run profile reader now")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("read a.txt")})
	key(tea.KeyEnter)
	wait("in the background")
	sch.wait()
	runs, _, err := s.DB().Runs("", 10)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	wantFailedWithStack(t, s.DB(), runs[0].ID)

	key(tea.KeyEsc)
	key(tea.KeyCtrlR)
	wait("failed")
	key(tea.KeyEsc)
	key(tea.KeyCtrlC)
	tm.WaitFinished(t, teatest.WithFinalTimeout(eventually))
}

// TestProfileRunStartPanic: a panic while a profile run starts (here in
// resolving the model server) returns the sentence as the error and keeps
// a failed run with the stack in history; nothing is left running.
func TestProfileRunStartPanic(t *testing.T) {
	db := storetest.MustOpen(t)
	mustDefinition(t, db)
	mustProfile(t, db, workflow.Profile{Name: "reader", Definition: "notes"})
	pr := testRunner(t, db, "http://127.0.0.1:9/v1", t.TempDir())
	pr.resolve = func(context.Context, string) (*agent.Client, string, error) {
		var clients []*agent.Client
		return clients[len(pr.cwd)], "m", nil // out of range: the bug
	}
	run, err := pr.start(t.Context(), "reader", "read it", store.RunHeadless)
	const sentence = "the run failed: an internal error in starting the profile run; the stack is in the run's events — please report it"
	if run != nil || !errors.Is(err, panics.ErrInternal) || err.Error() != sentence {
		t.Fatalf("start = %v, %v; want no run and %q", run, err, sentence)
	}
	runs, _, err := db.Runs("", 10)
	if err != nil || len(runs) != 1 || runs[0].Outcome != store.RunFailed || runs[0].Error != sentence || runs[0].Profile != "reader" {
		t.Fatalf("history = %+v, %v", runs, err)
	}
	evs, err := db.RunEvents(runs[0].ID)
	if err != nil || len(evs) == 0 || !strings.Contains(evs[0].Text, "index out of range") || !strings.Contains(evs[0].Text, "TestProfileRunStartPanic") {
		t.Fatalf("events = %+v, %v; want the panic and its stack", evs, err)
	}
}
