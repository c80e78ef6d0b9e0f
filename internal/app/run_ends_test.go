package app

import (
	"context"
	"testing"
	"time"

	"vouch/store"
	"vouch/store/storetest"
	"vouch/workflow"
)

// TestSchedulerPublishesRunEnds: a background run's end reaches Ends with
// the outcome run history recorded, after its follower has read it to the
// end (SPEC L4, H6).
func TestSchedulerPublishesRunEnds(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	storetest.PutProfile(t, db, workflow.Profile{Name: "nightly", Definition: "notes"})
	rec, err := db.CreateRun(store.RunRecord{Kind: store.RunProfile, Profile: "nightly", Task: "t", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	run, events := fakeRun(db, rec.ID)
	start := func(context.Context, string, string, store.RunKind) (*ProfileRun, error) { return run, nil }
	s := newScheduler(db, start, func(context.Context, workflow.Profile) error { return nil }, NewInbox(), time.Now)
	if _, err := s.runNow(t.Context(), "nightly", "t"); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-s.ends:
		t.Fatalf("an end before the run ended: %+v", e)
	default:
	}
	if _, err := db.FinishRun(rec.ID, store.RunFailed, "the model server went away"); err != nil {
		t.Fatal(err)
	}
	close(events)
	select {
	case e := <-s.ends:
		if e.RunID != rec.ID || e.Profile != "nightly" || e.Outcome != store.RunFailed || !e.Failed() {
			t.Errorf("end = %+v, want run %s of nightly failed", e, rec.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no end within 10s")
	}
	s.shutdown()
}
