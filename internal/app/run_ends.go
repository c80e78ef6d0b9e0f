package app

import "vouch/store"

// RunEnded is how a background run — a scheduled run, or a profile run
// the person started from the Profiles page — ended, for the interface to
// notify (SPEC L4). Outcome is as run history records it.
type RunEnded struct {
	RunID   string
	Profile string
	Kind    store.RunKind
	Outcome store.RunOutcome
}

// Failed reports whether the run did not end as done (failed, stopped at
// a call that waited too long, cancelled).
func (e RunEnded) Failed() bool { return e.Outcome != store.RunDone }

// runEndsBuffer is how many ends wait for a slow listener. An end that
// finds the buffer full is not delivered: ends feed notifications only,
// and every outcome is in run history.
const runEndsBuffer = 16

// publishEnd delivers run's end on s.ends without blocking the scheduler.
// It runs after the run's follower, before the run's reservation is
// released, so that no end is published after shutdown returns.
func (s *scheduler) publishEnd(profile, runID string, kind store.RunKind) {
	outcome := store.RunFailed
	if rec, err := s.db.Run(runID); err == nil {
		outcome = rec.Outcome
	}
	select {
	case s.ends <- RunEnded{RunID: runID, Profile: profile, Kind: kind, Outcome: outcome}:
	default:
	}
}
