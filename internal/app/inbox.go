package app

import (
	"fmt"
	"sync"
	"time"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/safetext"
	"vouch/store"
	"vouch/tool"
)

// Inbox holds the tool calls of background runs (scheduled ones) that wait
// for the person (SPEC H6, D4), and the questions servers ask during their
// calls (kind "input", SPEC B12), which wait under the same deadline. A run whose call waits keeps waiting until
// the person answers in the TUI's approvals inbox, or until the call's
// deadline: then the run is stopped, recorded as waiting-approval with a
// sentence saying nothing was executed, and can be started again. Time is
// passed in (expire), never read from a clock here. close ends the count
// channel once no background run is left, so the TUI's listener returns.
// It is safe for concurrent use.
type Inbox struct {
	mu      sync.Mutex
	items   []inboxEntry
	changes chan int // at most one unread count; closed by close
	closed  bool
}

type inboxEntry struct {
	item  InboxItem
	reply chan<- agent.Decision
	// answer receives the person's answer to a question (item.Question
	// set; reply is then nil). Buffered: a send never blocks.
	answer chan<- tool.Answer
	// stop ends the run when the call times out.
	stop func(store.RunOutcome, string)
}

// InboxItem is view.InboxItem (internal/view), shared with the interface.
type InboxItem = view.InboxItem

// NewInbox returns an empty inbox.
func NewInbox() *Inbox { return &Inbox{changes: make(chan int, 1)} }

// Add queues one waiting call: reply receives the person's decision (it
// must be buffered), stop ends the run when the call times out. The
// scheduler adds the calls of its background runs.
func (ib *Inbox) Add(item InboxItem, reply chan<- agent.Decision, stop func(store.RunOutcome, string)) {
	ib.add(inboxEntry{item: item, reply: reply, stop: stop})
}

func (ib *Inbox) add(e inboxEntry) {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	ib.items = append(ib.items, e)
	ib.notify()
}

// notify publishes the current count, replacing an unread older one; it
// never blocks, and does nothing once the inbox is closed. ib.mu is held,
// so counts are published in the order they changed.
func (ib *Inbox) notify() {
	if ib.closed {
		return
	}
	n := len(ib.items)
	for {
		select {
		case ib.changes <- n:
			return
		default:
		}
		select {
		case <-ib.changes:
		default:
		}
	}
}

// Changes delivers the count of waiting calls each time it changes; it
// is closed once the interface's background runs have ended.
func (ib *Inbox) Changes() <-chan int { return ib.changes }

// Close ends the count channel: vouch delivers no more counts. Later
// changes are not published; closing twice does nothing.
func (ib *Inbox) Close() {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	if !ib.closed {
		ib.closed = true
		close(ib.changes)
	}
}

// Pending lists the waiting calls, oldest first, with every untrusted
// string neutralised.
func (ib *Inbox) Pending() []InboxItem {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	out := make([]InboxItem, len(ib.items))
	for i, e := range ib.items {
		it := e.item
		it.Task, it.Reason, it.Preview = safetext.Neutralize(it.Task), safetext.Neutralize(it.Reason), safetext.Neutralize(it.Preview)
		out[i] = it
	}
	return out
}

// Answer delivers the person's decision to the run that waits for it.
func (ib *Inbox) Answer(runID, correlationID string, d agent.Decision) error {
	e, ok := ib.take(runID, correlationID, false)
	if !ok {
		return fmt.Errorf("that call no longer waits (it timed out or its run ended); nothing was sent")
	}
	e.reply <- d // buffered: never blocks
	return nil
}

// AnswerInput delivers the person's answer to a server's question of the
// run that waits for it (SPEC B12).
func (ib *Inbox) AnswerInput(runID, correlationID string, a tool.Answer) error {
	e, ok := ib.take(runID, correlationID, true)
	if !ok {
		return fmt.Errorf("that question no longer waits (the server closed it, it timed out or its run ended); nothing was sent")
	}
	e.answer <- a // buffered: never blocks
	return nil
}

// take removes and returns the waiting call (question false) or question
// (true) of runID with correlationID.
func (ib *Inbox) take(runID, correlationID string, question bool) (inboxEntry, bool) {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	for i, e := range ib.items {
		if e.item.RunID == runID && e.item.Call.CorrelationID == correlationID && (e.item.Question != nil) == question {
			ib.items = append(ib.items[:i], ib.items[i+1:]...)
			ib.notify()
			return e, true
		}
	}
	return inboxEntry{}, false
}

// dropQuestion removes the question of runID's call correlationID, which
// the server closed or the call ended: nobody would read an answer.
func (ib *Inbox) dropQuestion(runID, correlationID string) { ib.take(runID, correlationID, true) }

// expire stops the runs whose calls waited past their deadline at now and
// returns the earliest deadline still pending (zero: none).
func (ib *Inbox) expire(now time.Time) time.Time {
	ib.mu.Lock()
	var keep, gone []inboxEntry
	var next time.Time
	for _, e := range ib.items {
		if !e.item.Deadline.IsZero() && !now.Before(e.item.Deadline) {
			gone = append(gone, e)
			continue
		}
		keep = append(keep, e)
		if d := e.item.Deadline; !d.IsZero() && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	ib.items = keep
	if len(gone) > 0 {
		ib.notify()
	}
	ib.mu.Unlock()
	for _, e := range gone {
		if q := e.item.Question; q != nil {
			e.stop(store.RunWaitingApproval, fmt.Sprintf(
				"the server %s asked a question during %s (correlation ID %s) and nobody answered by %s; the run stopped — answer sooner, or run the profile again",
				safetext.Line(q.Server, 60), safetext.Line(q.Tool, 60), e.item.Call.CorrelationID, e.item.Deadline.Local().Format("15:04")))
			continue
		}
		e.stop(store.RunWaitingApproval, fmt.Sprintf(
			"%s needed approval (correlation ID %s) and nobody answered by %s; nothing was executed — answer sooner, classify it with a policy rule, or run the profile again",
			safetext.Line(e.item.Call.Identity, 100), e.item.Call.CorrelationID, e.item.Deadline.Local().Format("15:04")))
	}
	return next
}

// DropRun removes the calls of a run that ended.
func (ib *Inbox) DropRun(runID string) {
	ib.mu.Lock()
	keep := ib.items[:0]
	for _, e := range ib.items {
		if e.item.RunID != runID {
			keep = append(keep, e)
		}
	}
	changed := len(keep) != len(ib.items)
	ib.items = keep
	if changed {
		ib.notify()
	}
	ib.mu.Unlock()
}
