package workflows

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit/kittest"
	"vouch/tui/settings/settingstest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// fakeBackend holds the switch and the schedules; it records every turn
// of the switch and fails as told.
type fakeBackend struct {
	mu        sync.Mutex
	on        bool
	schedules []Schedule
	set       []bool
	errs      map[string]error // by op: switch, schedules, set
}

func (f *fakeBackend) WorkflowsEnabled(context.Context) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.on, f.errs["switch"]
}

func (f *fakeBackend) SetWorkflowsEnabled(_ context.Context, on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set = append(f.set, on)
	if err := f.errs["set"]; err != nil {
		return err
	}
	f.on = on
	for i := range f.schedules {
		f.schedules[i].Paused = map[bool]string{false: "Agent Workflows is off", true: ""}[on]
	}
	return nil
}

func (f *fakeBackend) Schedules(context.Context) ([]Schedule, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.schedules), f.errs["schedules"]
}

func (f *fakeBackend) got() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.set)
}

func backend() *fakeBackend {
	return &fakeBackend{
		on: true,
		schedules: []Schedule{
			{Profile: "notes", Spec: "every 1h", Task: "tidy the notes", Next: kittest.T0.Add(20 * time.Minute), Last: "done", LastAt: kittest.T0.Add(-40 * time.Minute)},
			{Profile: "report", Spec: "cron 0 9 * * 1-5", Task: "weekly report", Last: "missed: vouch was not running", LastAt: kittest.T0.Add(-26 * time.Hour)},
		},
		errs: map[string]error{},
	}
}

// shown returns the page focused and loaded over b.
func shown(t *testing.T, b Backend) Page {
	t.Helper()
	p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), b).SetSize(76, 13).Focus()
	return step(t, p.(Page), kittest.Run(t, cmd))
}

func step(t *testing.T, p Page, msgs ...tea.Msg) Page {
	t.Helper()
	for _, msg := range msgs {
		next, _, _ := p.Update(msg)
		p = next.(Page)
	}
	return p
}

var (
	keySpace = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
)

// TestWorkflowsSwitch: the page shows the switch, the note that schedules
// are not a server, and each schedule with when it fires next (by the
// page's clock) and what happened last; space turns the switch exactly
// once, which moves only when the backend answered, and reloads the
// schedules, now paused; a failure keeps the switch and is one sentence;
// before the load space does nothing (SPEC H1, H6).
func TestWorkflowsSwitch(t *testing.T) {
	t.Run("the switch and the schedules show", func(t *testing.T) {
		v := shown(t, backend()).View()
		for _, want := range []string{"Agent Workflows  ● on", "Schedules are not a server", "Schedules (2)", "notes · every 1h · next in 20m",
			"tidy the notes — last: done 40m ago", "report · cron 0 9 * * 1-5 · next not planned"} {
			if !strings.Contains(v, want) {
				t.Errorf("the page does not show %q:\n%s", want, v)
			}
		}
	})
	t.Run("down scrolls the schedules", func(t *testing.T) {
		v := step(t, shown(t, backend()), keyDown).View()
		if strings.Contains(v, "tidy the notes") || !strings.Contains(v, "weekly report — last: missed: vouch was not running 26h ago") {
			t.Errorf("after down:\n%s", v)
		}
	})
	t.Run("space turns the switch once answered", func(t *testing.T) {
		b := backend()
		next, _, cmd := shown(t, b).Update(keySpace)
		p := next.(Page)
		if !strings.Contains(p.View(), "● on · changing…") || !p.On() {
			t.Fatalf("before the answer:\n%s", p.View())
		}
		if _, _, again := p.Update(keySpace); again != nil {
			t.Error("a second space acted while the switch was turning")
		}
		done := kittest.Run(t, cmd)
		if !slices.Equal(b.got(), []bool{false}) {
			t.Fatalf("the backend got %v, want exactly one turn off", b.got())
		}
		next, _, reload := p.Update(done)
		p = step(t, next.(Page), kittest.Run(t, reload))
		if v := p.View(); p.On() || !strings.Contains(v, "○ off") || !strings.Contains(v, "Agent Workflows is off: nothing new starts") ||
			!strings.Contains(v, "paused: Agent Workflows is off") {
			t.Errorf("after turning off:\n%s", v)
		}
		if k := p.Keys().Toggle.Help().Desc; k != "turn on" {
			t.Errorf("space's help says %q, want turn on", k)
		}
	})
	t.Run("a failed turn keeps the switch", func(t *testing.T) {
		b := backend()
		b.errs["set"] = errors.New("the scheduler did not stop")
		next, _, cmd := shown(t, b).Update(keySpace)
		p := step(t, next.(Page), kittest.Run(t, cmd))
		if v := p.View(); !p.On() || !strings.Contains(v, "✗ Could not turn off Agent Workflows: the scheduler did not stop.") {
			t.Errorf("failed turn:\n%s", v)
		}
	})
	t.Run("failed loads are one sentence", func(t *testing.T) {
		for op, want := range map[string]string{
			"switch":    "✗ Could not read the Agent Workflows switch: database is locked.",
			"schedules": "✗ Could not list the schedules: database is locked.",
		} {
			b := backend()
			b.errs[op] = errors.New("database is locked")
			p := shown(t, b)
			if v := p.View(); !strings.Contains(v, want) {
				t.Errorf("%s failed:\n%s", op, v)
			}
			if _, _, cmd := p.Update(keySpace); cmd != nil {
				t.Errorf("space acted after a failed %s load", op)
			}
		}
	})
	t.Run("space does nothing before the load", func(t *testing.T) {
		p, _ := New(kittest.Common(80, 18), DefaultKeyMap(), backend()).SetSize(76, 13).Focus()
		if _, _, cmd := p.Update(keySpace); cmd != nil || !strings.Contains(p.View(), "Loading…") {
			t.Errorf("before the load:\n%s", p.View())
		}
	})
	t.Run("an answer nobody waits for is dropped", func(t *testing.T) {
		p := step(t, shown(t, backend()), SetMsg{on: false})
		if !p.On() || p.Notice != "" {
			t.Error("a stray answer turned the switch")
		}
	})
	t.Run("without a backend it says so", func(t *testing.T) {
		p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), nil).Focus()
		if _, _, sp := p.Update(keySpace); cmd != nil || sp != nil || !strings.Contains(p.View(), "Agent Workflows is not available here.") {
			t.Errorf("no backend:\n%s", p.View())
		}
	})
}

// TestWorkflowsNeutralisesStoredText: a profile's name, schedule, task,
// paused reason, last outcome and a failure reach the page without
// control sequences (SPEC D3).
func TestWorkflowsNeutralisesStoredText(t *testing.T) {
	b := backend()
	b.schedules = []Schedule{{Profile: kittest.Hostile, Spec: kittest.Hostile, Task: kittest.Hostile, Paused: kittest.Hostile, Last: kittest.Hostile, LastAt: kittest.T0}}
	b.errs["set"] = errors.New(kittest.Hostile)
	p := shown(t, b)
	kittest.Clean(t, p.View())
	next, _, cmd := p.Update(keySpace)
	kittest.Clean(t, step(t, next.(Page), kittest.Run(t, cmd)).View())
}

// TestWorkflowsFits: many schedules with long names and tasks and a long
// failure fit the area Settings gives the page at 80x24 and 60x16, and a
// schedule and the failure stay on screen.
func TestWorkflowsFits(t *testing.T) {
	b := backend()
	for i := range 20 {
		b.schedules = append(b.schedules, Schedule{Profile: strings.Repeat("profile-", 5) + fmt.Sprint(i), Spec: "cron " + strings.Repeat("0 9 * * 1-5 ", 4),
			Task: strings.Repeat("a long task ", 10), Paused: strings.Repeat("the model server is down ", 3), Last: "skipped: keyring locked", LastAt: kittest.T0.Add(-time.Hour)})
	}
	b.errs["set"] = errors.New(strings.Repeat("the scheduler refused ", 8))
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			s := settingstest.Framed(New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), b), sz.W, sz.H)
			pg, cmd := s.Shown().Focus()
			p := step(t, pg.(Page), kittest.Run(t, cmd), keyDown)
			next, _, set := p.Update(keySpace)
			p = step(t, next.(Page), kittest.Run(t, set))
			kittest.Fits(t, p.View(), p.Width, p.Height)
			v := settingstest.Framed(p, sz.W, sz.H).View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "Schedules (22)") || !strings.Contains(v, "report") || !strings.Contains(v, "✗ Could not turn off") {
				t.Errorf("the schedules or the failure do not show:\n%s", v)
			}
		})
	}
}
