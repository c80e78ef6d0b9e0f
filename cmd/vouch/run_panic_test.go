package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/store/storetest"

	"vouch/agent/agenttest"
	"vouch/internal/tuiwire"
	"vouch/mcpclient"
	"vouch/store"
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
func brokenSession(t *testing.T, modelURL string, broken *atomic.Bool) (*session, *tuiwire.Backend, app.Background) {
	t.Helper()
	s, err := openSession(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ib := app.NewInbox()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = modelURL, "m"
	wf := tuiwire.NewWorkflows(s.App, ib)
	b := tuiwire.NewBackend(cfg, wf)
	runner := s.ProfileRunner(b.Resolver())
	runner.SetMCPTools(func(mcpclient.EffectFunc) []tool.Tool { return []tool.Tool{brokenRead{broken}} })
	bg := s.StartScheduler(t.Context(), runner, ib)
	wf.SetRunNow(bg.RunNow)
	t.Cleanup(func() {
		bg.Stop()
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.PutDefinition(t, s.DB(), roleDefinition)
	storetest.PutProfile(t, s.DB(), workflow.Profile{Name: "reader", Definition: "notes", Tools: []string{agent.IdentityFSRead}})
	return s, b, bg
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
	s, b, bg := brokenSession(t, model.URL(), &broken)

	id, err := b.RunProfile(t.Context(), "reader", "read a.txt")
	if err != nil {
		t.Fatal(err)
	}
	bg.Wait()
	wantFailedWithStack(t, s.DB(), id)

	broken.Store(false)
	id, err = b.RunProfile(t.Context(), "reader", "read a.txt")
	if err != nil {
		t.Fatal(err)
	}
	bg.Wait()
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
	s, b, bg := brokenSession(t, model.URL(), &broken)

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
	bg.Wait()
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
