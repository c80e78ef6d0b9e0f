package app

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/agent"

	"vouch/agent/agenttest"
	"vouch/store"
	"vouch/store/storetest"
	"vouch/tool"
	"vouch/workflow"
)

// eventually bounds a wait on a channel in tests: a failure, never a sleep.
const eventually = 10 * time.Second

// fakeRun is a run whose events the test sends.
func fakeRun(db *store.DB, id string) (*ProfileRun, chan agent.Event) {
	ch := make(chan agent.Event)
	return &ProfileRun{ID: id, Events: ch, rec: &RunRecorder{db: db}, cancel: func() {}}, ch
}

func logEntries(t *testing.T, db *store.DB) []store.ScheduleEntry {
	t.Helper()
	log, err := db.ScheduleLog(100)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// TestScheduleTicks: ticks missed while vouch was closed are recorded as
// one missed entry with their count; the tick due now starts a run; a tick
// while that run goes on is skipped; with Agent Workflows off nothing
// starts and the skip is recorded; a resource down is a missed run with its
// reason; a late tick is missed, not run late (SPEC H1, H6, H7).
func TestScheduleTicks(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	storetest.PutProfile(t, db, workflow.Profile{Name: "hourly", Definition: "notes", Schedule: &workflow.Schedule{Every: "1h", Task: "summarise"}})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.SetScheduleMark("hourly", t0); err != nil {
		t.Fatal(err)
	}
	var starts int
	run, events := fakeRun(db, "run-1")
	start := func(context.Context, string, string, store.RunKind) (*ProfileRun, error) { starts++; return run, nil }
	var down error
	ready := func(context.Context, workflow.Profile) error { return down }
	clock := t0.Add(150 * time.Minute)
	s := newScheduler(db, start, ready, NewInbox(), func() time.Time { return clock })
	ctx := t.Context()

	next := s.tick(ctx, t0.Add(3*time.Hour+10*time.Second))
	if starts != 1 {
		t.Fatalf("the tick due now started %d runs, want 1", starts)
	}
	if !next.Equal(t0.Add(4 * time.Hour)) {
		t.Fatalf("next tick %v, want %v", next, t0.Add(4*time.Hour))
	}
	log := logEntries(t, db)
	if len(log) != 2 || log[0].Outcome != store.TickStarted || log[0].RunID != "run-1" ||
		log[1].Outcome != store.TickMissed || log[1].Count != 2 || !strings.Contains(log[1].Reason, "vouch was not running") {
		t.Fatalf("log = %+v; want 2 missed while closed, then one started", log)
	}

	s.tick(ctx, t0.Add(4*time.Hour+5*time.Second))
	if starts != 1 {
		t.Fatal("a tick started a second run while the first was going")
	}
	if log := logEntries(t, db); log[0].Outcome != store.TickSkipped || !strings.Contains(log[0].Reason, "still going") {
		t.Fatalf("busy tick: %+v", log[0])
	}
	close(events)
	s.wait()

	if err := db.SetWorkflowsEnabled(false); err != nil {
		t.Fatal(err)
	}
	s.tick(ctx, t0.Add(5*time.Hour+5*time.Second))
	if starts != 1 {
		t.Fatal("a tick started a run with Agent Workflows off")
	}
	if log := logEntries(t, db); log[0].Outcome != store.TickSkipped || !strings.Contains(log[0].Reason, "Agent Workflows is off") {
		t.Fatalf("switch off: %+v", log[0])
	}
	if err := db.SetWorkflowsEnabled(true); err != nil {
		t.Fatal(err)
	}

	down = errFromSentence("the model server at http://127.0.0.1:9/v1 did not answer")
	s.tick(ctx, t0.Add(6*time.Hour+5*time.Second))
	if log := logEntries(t, db); starts != 1 || log[0].Outcome != store.TickMissed || !strings.Contains(log[0].Reason, "did not answer") {
		t.Fatalf("resource down: starts %d, %+v", starts, log[0])
	}
	down = nil

	s.tick(ctx, t0.Add(7*time.Hour+lateTick+time.Minute))
	if log := logEntries(t, db); starts != 1 || log[0].Outcome != store.TickMissed || !strings.Contains(log[0].Reason, "asleep") {
		t.Fatalf("late tick: starts %d, %+v", starts, log[0])
	}

	// History has every tick that did not start a run, with its reason.
	runs, _, err := db.Runs("", 50)
	if err != nil {
		t.Fatal(err)
	}
	got := map[store.RunOutcome]int{}
	for _, r := range runs {
		if r.Kind != store.RunScheduled || r.Profile != "hourly" || r.Error == "" {
			t.Fatalf("history record %+v", r)
		}
		got[r.Outcome]++
	}
	if got[store.RunMissed] != 3 || got[store.RunSkipped] != 2 {
		t.Fatalf("history outcomes %v, want 3 missed and 2 skipped", got)
	}
	st, err := readWorkflowsStatus(db, t0.Add(7*time.Hour+lateTick+time.Minute), "")
	if err != nil || len(st.Schedules) != 1 || !strings.Contains(st.Schedules[0].Last, "asleep") || st.Schedules[0].Next.IsZero() {
		t.Fatalf("status = %+v, %v", st, err)
	}
}

type sentenceError string

func (e sentenceError) Error() string { return string(e) }

func errFromSentence(s string) error { return sentenceError(s) }

// testRunner is a profile runner on db against a scripted model server.
func testRunner(t *testing.T, db *store.DB, url, dir string) *ProfileRunner {
	return &ProfileRunner{
		db: db,
		resolve: func(_ context.Context, model string) (*agent.Client, string, error) {
			if model == "" {
				model = "m"
			}
			return agent.NewClient(url, "", &http.Client{}), model, nil
		},
		cwd:    dir,
		policy: newPolicy(db, dir, nil),
		limits: agent.DefaultLimits(),
		onErr:  func(err error) { t.Errorf("history: %v", err) },
	}
}

func wireOf(t *testing.T, identity string) string {
	t.Helper()
	wire, err := tool.WireNames([]string{identity})
	if err != nil {
		t.Fatal(err)
	}
	for w := range wire {
		return w
	}
	return ""
}

// TestProfileEditedMidRun: a profile edited while its run is in flight
// does not change the run: it keeps the revision, model and allowlist it
// froze, and history shows that revision (SPEC H4, H7, D6).
func TestProfileEditedMidRun(t *testing.T) {
	gate := make(chan struct{})
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Repeat: true, Steps: append([]agenttest.Step{agenttest.Wait(gate)}, agenttest.Words("Done.")...)},
	}}, agenttest.WithModels("m", "other"))
	defer model.Close()
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	p := storetest.PutProfile(t, db, workflow.Profile{Name: "notes", Definition: "notes", Model: "m", Tools: []string{agent.IdentityFSRead}})
	run, err := testRunner(t, db, model.URL(), t.TempDir()).Start(t.Context(), "notes", "go", store.RunProfile)
	if err != nil {
		t.Fatal(err)
	}
	p.Model, p.Tools = "other", []string{agent.IdentityFSList}
	if edited := storetest.PutProfile(t, db, p); edited.Revision != 2 {
		t.Fatalf("edit saved revision %d", edited.Revision)
	}
	close(gate)
	for range run.Events {
	}
	rec, err := db.Run(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.ProfileRevision != 1 || rec.Outcome != store.RunDone {
		t.Fatalf("history = %+v; want revision 1, done", rec)
	}
	reqs := model.Requests()
	if len(reqs) != 1 || reqs[0].Model != "m" || !reqs[0].HasTool(wireOf(t, agent.IdentityFSRead)) || reqs[0].HasTool(wireOf(t, agent.IdentityFSList)) {
		t.Fatalf("requests = %+v; want the frozen model and allowlist", reqs)
	}
}

// TestScheduledApprovalInbox: a scheduled run's call that needs approval
// waits in the inbox (its count published), nothing runs before a
// decision; past the deadline the run stops, recorded as waiting for
// approval with a sentence saying nothing was executed; a call answered in
// time reaches the run (SPEC H6, D4, D5).
func TestScheduledApprovalInbox(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Finished.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", wireOf(t, agent.IdentityFSWrite), `{"path":"out.txt","content":"hi"}`)}},
	}}, agenttest.WithModels("m"))
	defer model.Close()
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	dir := t.TempDir()
	storetest.PutProfile(t, db, workflow.Profile{Name: "writer", Definition: "notes", Tools: []string{agent.IdentityFSWrite},
		Schedule: &workflow.Schedule{Every: "1h", Task: "write it"}})
	runner := testRunner(t, db, model.URL(), dir)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.SetScheduleMark("writer", t0); err != nil {
		t.Fatal(err)
	}
	ib := NewInbox()
	clock := t0
	s := newScheduler(db, runner.Start, nil, ib, func() time.Time { return clock })

	waitCount := func(want int) {
		t.Helper()
		for {
			select {
			case n := <-ib.Changes():
				if n == want {
					return
				}
			case <-time.After(eventually):
				t.Fatalf("the inbox never held %d calls", want)
			}
		}
	}

	// First tick: nobody answers before the deadline.
	clock = t0.Add(time.Hour)
	s.tick(t.Context(), clock)
	waitCount(1)
	items := ib.Pending()
	if len(items) != 1 || items[0].Profile != "writer" || items[0].Call.Identity != agent.IdentityFSWrite || items[0].Deadline.IsZero() {
		t.Fatalf("inbox = %+v", items)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); err == nil {
		t.Fatal("the write ran before any decision")
	}
	if next := ib.expire(items[0].Deadline.Add(-time.Second)); !next.Equal(items[0].Deadline) {
		t.Fatalf("before the deadline: next %v", next)
	}
	ib.expire(items[0].Deadline)
	s.wait()
	rec, err := db.Run(items[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != store.RunWaitingApproval || !strings.Contains(rec.Error, "nothing was executed") || !strings.Contains(rec.Error, items[0].Call.CorrelationID) {
		t.Fatalf("timed-out run = %+v", rec)
	}
	if err := ib.Answer(items[0].RunID, items[0].Call.CorrelationID, agent.Decision{Allow: true}); err == nil {
		t.Fatal("an answer after the deadline reached a stopped run")
	}

	// Second tick: the person allows it.
	clock = t0.Add(2 * time.Hour)
	s.tick(t.Context(), clock)
	waitCount(1)
	items = ib.Pending()
	if err := ib.Answer(items[0].RunID, items[0].Call.CorrelationID, agent.Decision{Allow: true}); err != nil {
		t.Fatal(err)
	}
	s.wait()
	if rec, _ := db.Run(items[0].RunID); rec.Outcome != store.RunDone {
		t.Fatalf("answered run = %+v", rec)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "hi" {
		t.Fatalf("the allowed write: %q, %v", b, err)
	}
	evs, err := db.RunEvents(items[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	var asked, allowed bool
	for _, ev := range evs {
		asked = asked || (ev.Kind == store.EventApproval && strings.HasPrefix(ev.Text, "asked"))
		allowed = allowed || (ev.Kind == store.EventApproval && ev.Text == "allowed once")
	}
	if !asked || !allowed {
		t.Fatalf("history lacks the approval: %+v", evs)
	}
}
