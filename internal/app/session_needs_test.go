package app

import (
	"context"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
	"vouch/workflow"
)

// TestSessionNeeds (SPEC K4, H6): a run in flight keeps the session, a
// finished one does not; a scheduled profile keeps it only while the
// Workflows switch is on.
func TestSessionNeeds(t *testing.T) {
	a, err := Open(context.Background(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.Close() }()
	need := func() SessionNeeds {
		t.Helper()
		n, err := a.SessionNeeds()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := need(); n != (SessionNeeds{}) {
		t.Fatalf("a fresh database needs %+v, want nothing", n)
	}
	r, err := a.db.CreateRun(store.RunRecord{Kind: store.RunChat, Task: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if n := need(); n.Running != 1 {
		t.Fatalf("with a run going: %+v, want 1 running", n)
	}
	if _, err := a.db.FinishRun(r.ID, store.RunDone, ""); err != nil {
		t.Fatal(err)
	}
	if n := need(); n.Running != 0 {
		t.Fatalf("after the run: %+v", n)
	}
	storetest.PutDefinition(t, a.db, roleDefinition)
	storetest.PutProfile(t, a.db, workflow.Profile{Name: "hourly", Definition: "notes", Schedule: &workflow.Schedule{Every: "1h", Task: "summarise"}})
	if err := a.db.SetWorkflowsEnabled(false); err != nil {
		t.Fatal(err)
	}
	if n := need(); n.Schedules {
		t.Fatal("a schedule with the Workflows switch off keeps the session")
	}
	if err := a.db.SetWorkflowsEnabled(true); err != nil {
		t.Fatal(err)
	}
	if n := need(); !n.Schedules {
		t.Fatal("a schedule with the switch on does not keep the session")
	}
}
