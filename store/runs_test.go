package store_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/store"
	"vouch/store/storetest"
	"vouch/workflow"
)

// tickingClock returns a clock that advances one second per call from t0.
func tickingClock(t0 time.Time) func() time.Time {
	n := 0
	return func() time.Time { n++; return t0.Add(time.Duration(n) * time.Second) }
}

// TestProfileRevisions: every save appends a revision stamped with the
// store's clock; earlier revisions stay readable after an edit (a run that
// froze one can show it, SPEC H2, H4, H7); invalid profiles write nothing.
func TestProfileRevisions(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: tickingClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))})
	p := workflow.Profile{Name: "triage", Definition: "reviewer", Tools: []string{"builtin:read_file"}}
	first, err := db.PutProfile(p)
	if err != nil || first.Revision != 1 || first.Updated.IsZero() {
		t.Fatalf("first save = %+v, %v", first, err)
	}
	p.Model, p.Revision = "qwen", 99 // Revision is the store's to set
	second, err := db.PutProfile(p)
	if err != nil || second.Revision != 2 {
		t.Fatalf("second save = %+v, %v", second, err)
	}
	old, err := db.Profile("triage", 1)
	if err != nil || old.Model != "" || old.Revision != 1 {
		t.Fatalf("revision 1 after an edit = %+v, %v", old, err)
	}
	latest, err := db.Profile("triage", 0)
	if err != nil || latest.Model != "qwen" {
		t.Fatalf("latest = %+v, %v", latest, err)
	}
	if _, err := db.PutProfile(workflow.Profile{Name: "Bad Name", Definition: "reviewer"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("invalid profile: %v, want ErrInvalid", err)
	}
	all, err := db.Profiles()
	if err != nil || len(all) != 1 || all[0].Revision != 2 {
		t.Fatalf("Profiles = %+v, %v", all, err)
	}
	revs, err := db.ProfileRevisions("triage")
	if err != nil || len(revs) != 2 {
		t.Fatalf("ProfileRevisions = %+v, %v", revs, err)
	}
	if err := db.DeleteProfile("triage"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Profile("triage", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after delete: %v, want ErrNotFound", err)
	}
	if err := db.DeleteProfile("triage"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
}

// TestRunHistory: a run is recorded with its frozen spec, its events in
// order, and its outcome; listing is newest first with a cursor; a run
// cannot be finished twice (SPEC H7).
func TestRunHistory(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: tickingClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))})
	var ids []string
	for i := range 5 {
		r, err := db.CreateRun(store.RunRecord{Kind: store.RunProfile, Profile: "triage", ProfileRevision: i + 1,
			Spec: json.RawMessage(`{"model":"m"}`), Task: "task"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != store.RunRunning || len(r.ID) != 24 {
			t.Fatalf("created %+v", r)
		}
		ids = append(ids, r.ID)
	}
	page, next, err := db.Runs("", 2)
	if err != nil || len(page) != 2 || page[0].ID != ids[4] || page[1].ID != ids[3] || next != ids[3] {
		t.Fatalf("first page = %v next %q, %v", runIDs(page), next, err)
	}
	page, next, err = db.Runs(next, 2)
	if err != nil || len(page) != 2 || page[0].ID != ids[2] || page[1].ID != ids[1] {
		t.Fatalf("second page = %v next %q, %v", runIDs(page), next, err)
	}
	page, next, err = db.Runs(next, 2)
	if err != nil || len(page) != 1 || page[0].ID != ids[0] || next != "" {
		t.Fatalf("last page = %v next %q, %v", runIDs(page), next, err)
	}
	if _, _, err := db.Runs("not-an-id", 2); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("bad cursor: %v, want ErrInvalid", err)
	}

	id := ids[2]
	long := strings.Repeat("é", store.MaxRunEventText)
	err = db.AppendRunEvents(id,
		store.RunEvent{Kind: store.EventToolCall, CorrelationID: "c1", Identity: "builtin:read_file", Text: `{"path":"a"}`},
		store.RunEvent{Kind: store.EventToolResult, CorrelationID: "c1", Text: long},
		store.RunEvent{Kind: store.EventText, Text: "done"})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := db.RunEvents(id)
	if err != nil || len(evs) != 3 || evs[0].CorrelationID != "c1" || evs[2].Seq != 3 {
		t.Fatalf("events = %+v, %v", evs, err)
	}
	if n := len(evs[1].Text); n > store.MaxRunEventText || !strings.HasSuffix(evs[1].Text, "[cut]") {
		t.Fatalf("a long result was kept at %d bytes, want it cut to %d and marked", n, store.MaxRunEventText)
	}
	done, err := db.FinishRun(id, store.RunDone, "")
	if err != nil || done.Outcome != store.RunDone || done.Ended.IsZero() || done.Events != 3 || done.ProfileRevision != 3 {
		t.Fatalf("finished = %+v, %v", done, err)
	}
	if _, err := db.FinishRun(id, store.RunFailed, "late"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("second finish: %v, want ErrInvalid", err)
	}
	if _, err := db.FinishRun(ids[1], store.RunRunning, ""); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("finish with running: %v, want ErrInvalid", err)
	}
	if _, err := db.Run("0000000000000000deadbeef"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown run: %v, want ErrNotFound", err)
	}
	if err := db.AppendRunEvents("nope", store.RunEvent{Kind: store.EventNote}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("events of an unknown run: %v, want ErrNotFound", err)
	}
	if _, err := db.CreateRun(store.RunRecord{Kind: "cron"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("unknown kind: %v, want ErrInvalid", err)
	}
	if _, err := db.CreateRun(store.RunRecord{Kind: store.RunChat, Spec: json.RawMessage(`{`)}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("spec that is not JSON: %v, want ErrInvalid", err)
	}
	skipped, err := db.CreateRun(store.RunRecord{Kind: store.RunScheduled, Outcome: store.RunSkipped, Error: "switch off"})
	if err != nil || skipped.Ended.IsZero() {
		t.Fatalf("a skipped run is recorded whole: %+v, %v", skipped, err)
	}
}

// TestRunEventsBounded: past MaxRunEvents events are counted, not kept.
func TestRunEventsBounded(t *testing.T) {
	db := storetest.MustOpen(t)
	r, err := db.CreateRun(store.RunRecord{Kind: store.RunHeadless})
	if err != nil {
		t.Fatal(err)
	}
	evs := make([]store.RunEvent, store.MaxRunEvents+7)
	for i := range evs {
		evs[i] = store.RunEvent{Kind: store.EventNote, Text: "x"}
	}
	if err := db.AppendRunEvents(r.ID, evs...); err != nil {
		t.Fatal(err)
	}
	got, err := db.Run(r.ID)
	if err != nil || got.Events != store.MaxRunEvents || got.EventsDropped != 7 {
		t.Fatalf("record = %+v, %v; want %d kept and 7 counted", got, err, store.MaxRunEvents)
	}
}

// TestRunRecoveredAfterCrash: a run left running by a process that died
// reads as failed after the next Open, with a sentence saying so (SPEC K3).
func TestRunRecoveredAfterCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), store.FileName)
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	live, err := db.CreateRun(store.RunRecord{Kind: store.RunScheduled, Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ended, err := db.CreateRun(store.RunRecord{Kind: store.RunChat})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishRun(ended.ID, store.RunDone, ""); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	got, err := db.Run(live.ID)
	if err != nil || got.Outcome != store.RunFailed || !strings.Contains(got.Error, "vouch stopped") || !strings.HasPrefix(got.Error, "interrupted: ") {
		t.Fatalf("interrupted run = %+v, %v; want failed with a reason", got, err)
	}
	if got, _ := db.Run(ended.ID); got.Outcome != store.RunDone {
		t.Fatalf("a finished run changed: %+v", got)
	}
}

func runIDs(rs []store.RunRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// TestScheduleLog: entries newest first, each tick's mark moves forward
// only; missed ticks keep their count and span (SPEC H6).
func TestScheduleLog(t *testing.T) {
	db := storetest.MustOpen(t)
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	if _, ok, err := db.ScheduleMark("triage"); ok || err != nil {
		t.Fatalf("mark before any tick: ok=%v %v", ok, err)
	}
	if _, err := db.AppendScheduleEntry(store.ScheduleEntry{Profile: "triage", Due: t0, Last: t0.Add(2 * time.Hour), Count: 3,
		Outcome: store.TickMissed, Reason: "vouch was not running"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AppendScheduleEntry(store.ScheduleEntry{Profile: "triage", Due: t0.Add(3 * time.Hour), Outcome: store.TickSkipped, Reason: "switch off"}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetScheduleMark("triage", t0); err != nil { // backwards: ignored
		t.Fatal(err)
	}
	mark, ok, err := db.ScheduleMark("triage")
	if err != nil || !ok || !mark.Equal(t0.Add(3*time.Hour)) {
		t.Fatalf("mark = %v %v %v, want %v", mark, ok, err, t0.Add(3*time.Hour))
	}
	log, err := db.ScheduleLog(10)
	if err != nil || len(log) != 2 || log[0].Outcome != store.TickSkipped || log[1].Count != 3 || log[1].Reason != "vouch was not running" {
		t.Fatalf("log = %+v, %v", log, err)
	}
	if _, err := db.AppendScheduleEntry(store.ScheduleEntry{Profile: "triage", Due: t0, Outcome: "lost"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("unknown outcome: %v, want ErrInvalid", err)
	}
}

// TestWorkflowsSwitch: on by default; off and on again are remembered
// (SPEC H1).
func TestWorkflowsSwitch(t *testing.T) {
	db := storetest.MustOpen(t)
	for _, step := range []struct {
		set  *bool
		want bool
	}{{nil, true}, {ptr(false), false}, {ptr(true), true}} {
		if step.set != nil {
			if err := db.SetWorkflowsEnabled(*step.set); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := db.WorkflowsEnabled(); err != nil || got != step.want {
			t.Fatalf("switch = %v, %v; want %v", got, err, step.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }
