package tuiwire

import (
	"vouch/internal/app"
	"vouch/tui/notes"
)

// runEnds is the channel of notes.RunEnd that SetRunEnds fills.
type runEnds struct{ ch <-chan notes.RunEnd }

// SetRunEnds hands the scheduler's background run ends to the interface,
// which notifies them (SPEC L4): it converts each into a notes.RunEnd on the
// channel RunEnds returns, closed once in is. Call it before the interface
// starts. An end the interface has not read while 16 wait is dropped:
// ends feed notifications only, and every outcome is in run history.
func (w *Workflows) SetRunEnds(in <-chan app.RunEnded) {
	if in == nil {
		return
	}
	out := make(chan notes.RunEnd, 16)
	go func() {
		defer close(out)
		for e := range in {
			select {
			case out <- notes.RunEnd{RunID: e.RunID, Profile: e.Profile, Failed: e.Failed(), Outcome: string(e.Outcome)}:
			default:
			}
		}
	}()
	w.ends = runEnds{ch: out}
}

// RunEnds implements notes.RunEnds (nil: no scheduler runs here).
func (w *Workflows) RunEnds() <-chan notes.RunEnd {
	if w == nil {
		return nil
	}
	return w.ends.ch
}
