package tui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"vouch/tui/settings/profiles"
)

// runnerFake is fakeWorkflows that can also run a profile now
// (ProfileRunner); it records every start.
type runnerFake struct {
	*fakeWorkflows
	mu      sync.Mutex
	started []string // "profile: task"
	err     error
	panics  bool
}

func (f *runnerFake) RunProfile(_ context.Context, name, task string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = append(f.started, name+": "+task)
	if f.panics {
		var ids []string
		return ids[len(name)], nil // out of range: a bug in the runner
	}
	if f.err != nil {
		return "", f.err
	}
	return "r-200", nil
}

func (f *runnerFake) starts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.started...)
}

// profilesPage opens Settings on the Profiles page, loaded.
func profilesPage(t *testing.T, b Backend) Model {
	t.Helper()
	m := startBackend(t, b, Options{})
	m, _ = update(m, keyCtrlX)
	m, cmd := toPage(t, m, "Profiles")
	m, _ = update(m, awaitMsg[profiles.ListedMsg](t, cmd))
	return m
}

// TestProfileRunNow: g on the Profiles page asks for the task and starts
// the profile under the cursor in the background through ProfileRunner
// (SPEC H6, H7): an empty task is refused without a call, a refusal stays
// in the prompt with the task as typed, and a start closes the prompt and
// names the run, pointing at the approvals inbox.
func TestProfileRunNow(t *testing.T) {
	f := &runnerFake{fakeWorkflows: newFakeWorkflows(t)}
	sampleWorkflows(f.fakeWorkflows)
	m := profilesPage(t, f)
	if !strings.Contains(m.View(), "g run now") {
		t.Fatalf("the help line does not offer g:\n%s", m.View())
	}
	m, _ = update(m, keyRune('g'))
	if !strings.Contains(m.View(), "Run profile daily-report now") {
		t.Fatalf("g did not ask for the task:\n%s", m.View())
	}
	m, cmd := update(m, keyEnter)
	if cmd != nil || !strings.Contains(flat(m.View()), "Type what the run should do") || len(f.starts()) != 0 {
		t.Fatalf("an empty task: starts %v\n%s", f.starts(), m.View())
	}

	f.err = errors.New("the Agent Workflows switch is off, so profiles do not run")
	m = typeText(m, "draft the notes")
	m, cmd = update(m, keyEnter)
	m, _ = update(m, awaitMsg[profiles.RunMsg](t, cmd))
	view := flat(m.View())
	if !strings.Contains(view, "The run did not start: the Agent Workflows switch is off") || !strings.Contains(view, "draft the notes") {
		t.Fatalf("a refusal must stay in the prompt with the task:\n%s", m.View())
	}

	f.err = nil
	m, cmd = update(m, keyEnter)
	m, cmd = update(m, awaitMsg[profiles.RunMsg](t, cmd))
	if strings.Contains(m.View(), "Run profile daily-report now") {
		t.Fatalf("the prompt stayed open after the run started:\n%s", m.View())
	}
	m, _ = update(m, awaitMsg[profiles.RunMsg](t, cmd)) // delivered to the page below
	if view := flat(m.View()); !strings.Contains(view, "Started run r-200 of daily-report in the background") ||
		!strings.Contains(view, "approvals inbox (ctrl+e)") {
		t.Fatalf("the page does not name the started run:\n%s", m.View())
	}
	if got := f.starts(); len(got) != 2 || got[0] != "daily-report: draft the notes" || got[1] != got[0] {
		t.Fatalf("starts = %v, want the typed task twice (refused, then started)", got)
	}
}

// TestProfileRunNeedsRunner: without ProfileRunner, g does nothing and
// help does not offer it.
func TestProfileRunNeedsRunner(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := profilesPage(t, f)
	if strings.Contains(m.View(), "run now") {
		t.Fatalf("help offers run now without the capability:\n%s", m.View())
	}
	m, _ = update(m, keyRune('g'))
	if strings.Contains(m.View(), "Run profile") {
		t.Fatalf("g opened the prompt without the capability:\n%s", m.View())
	}
}

// TestProfileRunPanics: a runner that panics while it starts the run
// fails the start in a sentence in the prompt, with the task as typed;
// the Cmd returns instead of taking the program down (invariant: no input
// panics the process).
func TestProfileRunPanics(t *testing.T) {
	f := &runnerFake{fakeWorkflows: newFakeWorkflows(t), panics: true}
	sampleWorkflows(f.fakeWorkflows)
	m := profilesPage(t, f)
	m, _ = update(m, keyRune('g'))
	m = typeText(m, "draft the notes")
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profiles.RunMsg](t, cmd))
	view := flat(m.View())
	if !strings.Contains(view, "The run did not start: an internal error in vouch stopped it") || !strings.Contains(view, "draft the notes") {
		t.Fatalf("a panicking start must stay in the prompt with a sentence:\n%s", m.View())
	}
}
