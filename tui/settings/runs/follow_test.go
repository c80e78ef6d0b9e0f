package runs

import (
	"strings"
	"testing"
	"time"

	"vouch/tui/kit"
)

// TestRunHistoryFollowsLiveRuns: while a run on the first page is still
// going, the pane reloads on a tick, so the run's end shows without a key;
// once every run has ended no tick is set, and a tick that an earlier load
// set is ignored (SPEC H7, L3).
func TestRunHistoryFollowsLiveRuns(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c := kit.Common{Width: 80, Height: 18, Styles: kit.DefaultStyles(nil, kit.DefaultTheme()), Now: func() time.Time { return t0 }}
	f := newFakeHistory()
	f.runs = []Summary{{ID: "r-1", Kind: "profile", Profile: "notes", Task: "write", Started: t0, Outcome: "running"}}
	l := New(c, DefaultKeyMap(), DefaultDetailKeyMap(), f)
	m, _, tick := l.Update(l.Init()())
	if tick == nil {
		t.Fatal("a running run set no refresh tick")
	}
	first := m.(List).Seq

	f.mu.Lock()
	f.runs[0].Outcome, f.runs[0].Ended = "done", t0.Add(time.Second)
	f.mu.Unlock()
	m, _, reload := m.Update(runsTickMsg{seq: first})
	if reload == nil {
		t.Fatal("the tick did not reload the first page")
	}
	m, _, next := m.Update(reload())
	if next != nil {
		t.Error("a tick was set although every run has ended")
	}
	if view := m.View(); !strings.Contains(view, "done") {
		t.Errorf("the ended run does not show as done:\n%s", view)
	}
	if _, _, cmd := m.Update(runsTickMsg{seq: first}); cmd != nil {
		t.Error("a stale tick reloaded the pane")
	}
}
