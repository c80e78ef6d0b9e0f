package app

import (
	"unicode/utf8"

	"vouch/internal/panics"
	"vouch/store"
)

// A panic in code that runs a model, a tool or a server never takes the
// session down: panics.Recover turns it into an *panics.InternalError, the
// run (or the start of one) is recorded failed with that sentence, and its
// stack goes into the run's events (SPEC H7), from where a report can
// quote it. This file records them; the goroutines that recover are the
// profile runner's, the recorder's and the scheduler's.

// stackEvents are the events that keep an internal error's report: the
// panic value and the stack, cut into events of at most
// store.MaxRunEventText bytes on rune boundaries.
func stackEvents(e *panics.InternalError) []store.RunEvent {
	text := e.Report()
	var evs []store.RunEvent
	for len(text) > 0 {
		n := min(len(text), store.MaxRunEventText-64)
		for n < len(text) && n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		evs = append(evs, store.RunEvent{Kind: store.EventError, Text: text[:n], IsError: true})
		text = text[n:]
	}
	return evs
}

// recordInternal keeps an internal error in run history: on the run id
// when it exists (its events get the stack, its outcome is failed), else
// as a new failed run like rec. It returns the error to report, with the
// run's ID when there is one.
func recordInternal(db *store.DB, onErr func(error), id string, rec store.RunRecord, e *panics.InternalError) (string, error) {
	report := func(err error) {
		if err != nil && onErr != nil {
			onErr(err)
		}
	}
	if id == "" {
		rec.Outcome, rec.Error = store.RunFailed, e.Error()
		created, err := db.CreateRun(rec)
		if err != nil {
			report(err)
			return "", Wrap(Failure, e)
		}
		id = created.ID
	} else {
		defer func() {
			_, err := db.FinishRun(id, store.RunFailed, e.Error())
			report(err)
		}()
	}
	report(db.AppendRunEvents(id, stackEvents(e)...))
	return id, Wrap(Failure, e)
}
