package tuiwire

import (
	"testing"

	"vouch/internal/app"
	"vouch/store"
	"vouch/tui/notes"
)

// TestRunEnds: the scheduler's ends reach the interface as notes.RunEnd, and
// the channel closes with the scheduler's (SPEC L4).
func TestRunEnds(t *testing.T) {
	var w *Workflows
	if w.RunEnds() != nil {
		t.Error("a nil Workflows delivers ends")
	}
	w = &Workflows{}
	in := make(chan app.RunEnded, 2)
	w.SetRunEnds(in)
	var _ notes.RunEnds = (*Backend)(nil)
	in <- app.RunEnded{RunID: "r1", Profile: "nightly", Kind: store.RunScheduled, Outcome: store.RunWaitingApproval}
	in <- app.RunEnded{RunID: "r2", Profile: "weekly", Outcome: store.RunDone}
	close(in)
	var got []notes.RunEnd
	for e := range w.RunEnds() {
		got = append(got, e)
	}
	want := []notes.RunEnd{{RunID: "r1", Profile: "nightly", Failed: true, Outcome: "waiting-approval"}, {RunID: "r2", Profile: "weekly", Outcome: "done"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("ends = %+v, want %+v", got, want)
	}
}
