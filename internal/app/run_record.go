package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"vouch/agent"

	"vouch/internal/panics"
	"vouch/store"
)

// RunRecorder keeps one run's history (SPEC H7) from its events: it sits
// between the run and whoever follows it (the TUI, `vouch run`, the
// scheduler), records each event that matters and forwards every event
// unchanged but for approval replies, which it relays so that the decision
// is recorded too. Text is coalesced: one text event per model turn or
// part, never one per token. A history write that fails never stops the
// run; it is reported through onErr.
type RunRecorder struct {
	db    *store.DB
	onErr func(error)
	// digest, for a chat run, is the digest of the policy snapshot the
	// run froze (nil: the run had none).
	digest func() PolicyDigest

	mu  sync.Mutex
	rec store.RunRecord // rec.ID is empty until the record exists
	// override, when set, is the outcome the follower decided (e.g. the
	// run was stopped because a call needs approval).
	override    store.RunOutcome
	overrideErr string
	text        strings.Builder
}

// newRunRecorder returns the recorder of a chat run's history: rec is
// created at the run's RunStarted, its spec what the run froze with the
// policy digest (nil: the run had none); history write failures go to
// onErr.
func newRunRecorder(db *store.DB, rec store.RunRecord, digest func() PolicyDigest, onErr func(error)) *RunRecorder {
	return &RunRecorder{db: db, onErr: onErr, rec: rec, digest: digest}
}

// Follow starts following in: it returns the channel the follower reads,
// closed after in is closed. A record with an ID is already stored; one
// without is created at the run's RunStarted (a chat run's spec is what
// it froze) or, if the run ends before that, at its end.
func (rr *RunRecorder) Follow(ctx context.Context, in <-chan agent.Event) <-chan agent.Event {
	out := make(chan agent.Event, 64)
	go func() {
		defer close(out)
		for ev := range in {
			ev = rr.guardedObserve(ctx, ev)
			select {
			case out <- ev:
			case <-ctx.Done():
				// Cancelled: the follower still reads until the channel
				// closes (the final Done in particular), as it would from
				// the run itself; a follower that is gone gets a grace
				// period, then the rest is only recorded.
				select {
				case out <- ev:
				case <-time.After(followGrace):
				}
			}
		}
	}()
	return out
}

// followGrace is how long a cancelled run's events wait for a follower.
const followGrace = 5 * time.Second

// Stop marks the outcome the follower chose before it cancels the run.
func (rr *RunRecorder) Stop(outcome store.RunOutcome, reason string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.override == "" {
		rr.override, rr.overrideErr = outcome, reason
	}
}

// ID returns the run's ID, "" before the record exists.
func (rr *RunRecorder) ID() string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return rr.rec.ID
}

func (rr *RunRecorder) fail(err error) {
	if err != nil && rr.onErr != nil {
		rr.onErr(fmt.Errorf("run history: %w", err))
	}
}

// ensure creates the record if it does not exist yet; rr.mu is held.
func (rr *RunRecorder) ensure() bool {
	if rr.rec.ID != "" {
		return true
	}
	rec, err := rr.db.CreateRun(rr.rec)
	if err != nil {
		rr.fail(err)
		return false
	}
	rr.rec = rec
	return true
}

// add appends events; rr.mu is held.
func (rr *RunRecorder) add(evs ...store.RunEvent) {
	if !rr.ensure() {
		return
	}
	rr.fail(rr.db.AppendRunEvents(rr.rec.ID, evs...))
}

// flushText records the text gathered since the last flush; rr.mu is held.
func (rr *RunRecorder) flushText() {
	if rr.text.Len() == 0 {
		return
	}
	t := rr.text.String()
	rr.text.Reset()
	rr.add(store.RunEvent{Kind: store.EventText, Text: t})
}

// observe records ev and returns what to forward.
func (rr *RunRecorder) observe(ctx context.Context, ev agent.Event) agent.Event {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	switch ev := ev.(type) {
	case agent.TextDelta:
		if rr.text.Len() < store.MaxRunEventText {
			rr.text.WriteString(ev.Text)
		}
	case agent.RunStarted:
		if rr.rec.ID == "" {
			rr.rec.Spec = chatSpec(rr.policyDigest(), ev)
		}
		rr.add(store.RunEvent{Kind: store.EventNote, Text: planNote(ev)})
	case agent.WorkflowStarted:
		rr.add(store.RunEvent{Kind: store.EventNote, Text: fmt.Sprintf("%s %q revision %d; skill listing %s",
			ev.Kind, ev.Definition, ev.DefinitionRevision, ev.ListingLevel)})
	case agent.PartStarted:
		rr.flushText()
		rr.add(store.RunEvent{Kind: store.EventNote, Text: fmt.Sprintf("%s %s started; %s", ev.Part.Kind, ev.Part.Name, planNote(ev.Run))})
	case agent.PartFinished:
		rr.flushText()
		note := fmt.Sprintf("%s %s %s", ev.Part.Kind, ev.Part.Name, ev.Reason)
		if ev.Err != nil {
			note += ": " + ev.Err.Error()
		}
		rr.add(store.RunEvent{Kind: store.EventNote, Text: note, IsError: ev.Err != nil})
	case agent.Usage:
		if note := ev.Notice(); note != "" { // the server cut the prompt, the reply was cut off (SPEC A7)
			rr.flushText()
			rr.add(store.RunEvent{Kind: store.EventNote, Text: note})
		}
	case agent.ToolCallStarted:
		rr.flushText()
		rr.add(store.RunEvent{Kind: store.EventToolCall, CorrelationID: ev.Call.CorrelationID, Identity: ev.Call.Identity,
			Text: ev.Call.WireName + " " + ev.Call.Arguments})
	case agent.ToolCallFinished:
		rr.add(store.RunEvent{Kind: store.EventToolResult, CorrelationID: ev.Call.CorrelationID, Identity: ev.Call.Identity,
			Text: ev.Result, IsError: ev.IsError})
	case agent.ApprovalRequested:
		rr.flushText()
		rr.add(store.RunEvent{Kind: store.EventApproval, CorrelationID: ev.Call.CorrelationID, Identity: ev.Call.Identity,
			Text: "asked: " + ev.Reason})
		ev.Reply = rr.relay(ctx, ev)
		return ev
	case agent.InputRequested: // SPEC B12: what was asked, then what was sent (InputNoted)
		rr.flushText()
		what := "a form"
		if ev.Question.IsURL() {
			what = "a visit to " + ev.Question.URL
		}
		rr.add(store.RunEvent{Kind: store.EventApproval, CorrelationID: ev.Question.CorrelationID,
			Text: "the server asked for " + what + ": " + ev.Question.Message})
	case agent.InputNoted:
		rr.add(store.RunEvent{Kind: store.EventApproval, CorrelationID: ev.CorrelationID, Text: ev.Text, IsError: ev.Declined})
	case agent.Done:
		rr.flushText()
		if ie := (*panics.InternalError)(nil); errors.As(ev.Err, &ie) {
			rr.add(stackEvents(ie)...)
		}
		rr.finish(ev)
	}
	return ev
}

// guardedObserve is observe, with a panic of its own recorded as the
// run's failure (the stack in its events) instead of ending the process;
// the event goes on unchanged, so the run is not left waiting.
func (rr *RunRecorder) guardedObserve(ctx context.Context, ev agent.Event) (out agent.Event) {
	defer panics.Recover("the run's history", "vouch's run recorder", func(e *panics.InternalError) {
		out = ev
		rr.mu.Lock()
		defer rr.mu.Unlock()
		rr.add(stackEvents(e)...)
		if rr.override == "" {
			rr.override, rr.overrideErr = store.RunFailed, e.Error()
		}
		if d, ok := ev.(agent.Done); ok { // the last event: keep the outcome
			func() {
				defer panics.Recover("the run's history", "vouch's run recorder", func(e *panics.InternalError) { rr.fail(e) })
				rr.finish(d)
			}()
		}
	})
	return rr.observe(ctx, ev)
}

// relay returns a reply channel for the follower and passes its decision
// on to the run, recording it.
func (rr *RunRecorder) relay(ctx context.Context, ev agent.ApprovalRequested) chan<- agent.Decision {
	proxy := make(chan agent.Decision, 1)
	id := rr.rec.ID
	go func() {
		select {
		case d := <-proxy:
			text := "allowed once"
			if !d.Allow {
				text = "denied"
				if d.Note != "" {
					text += ": " + d.Note
				}
			}
			if id != "" {
				rr.fail(rr.db.AppendRunEvents(id, store.RunEvent{Kind: store.EventApproval,
					CorrelationID: ev.Call.CorrelationID, Identity: ev.Call.Identity, Text: text}))
			}
			ev.Reply <- d
		case <-ctx.Done():
		}
	}()
	return proxy
}

// finish stores the outcome; rr.mu is held.
func (rr *RunRecorder) finish(d agent.Done) {
	outcome, reason := store.RunDone, ""
	switch d.Reason {
	case agent.StopDone:
	case agent.StopCancelled:
		outcome, reason = store.RunCancelled, "cancelled"
	default:
		outcome = store.RunFailed
		if d.Err != nil {
			reason = d.Err.Error()
		}
	}
	if rr.override != "" {
		outcome, reason = rr.override, rr.overrideErr
	}
	if !rr.ensure() {
		return
	}
	_, err := rr.db.FinishRun(rr.rec.ID, outcome, reason)
	rr.fail(err)
}

// planNote is a run part's frozen tool plan in a line.
func planNote(rs agent.RunStarted) string {
	t := rs.Tools
	return fmt.Sprintf("model %s, window %d (%s); tools %d inline, %d deferred, %d of %d tokens",
		rs.Model, rs.ContextWindow, rs.WindowSource, t.Inline, t.Deferred, t.Sent, t.Budget)
}

// policyDigest is the digest of the snapshot a chat run froze.
func (rr *RunRecorder) policyDigest() PolicyDigest {
	if rr.digest == nil {
		return PolicyDigest{Error: "this run had no policy snapshot"}
	}
	return rr.digest()
}

// chatSpec is what a chat run froze, from its RunStarted, with the digest
// of the policy snapshot it decides with.
func chatSpec(digest PolicyDigest, rs agent.RunStarted) json.RawMessage {
	spec := FrozenSpec{Model: rs.Model, ContextWindow: rs.ContextWindow, WindowSource: rs.WindowSource,
		Limits: rs.Limits, Policy: digest, ToolBudget: agent.DefaultToolBudget}
	for wire, id := range rs.WireNames {
		spec.Tools = append(spec.Tools, FrozenTool{Identity: id, WireName: wire})
	}
	sortTools(spec.Tools)
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil
	}
	return raw
}
