package approval

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/tool"
	"vouch/tui/kit"
)

// Inbox holds the tool calls of background runs — profile runs started by a
// schedule or in the background — that wait for the person (SPEC H6, D4).
// Each is answered in the same approval pane as a chat call. The status
// line shows how many wait. The root's Backend MAY implement it; the root
// discovers it by type assertion, and without it the inbox says it is not
// available. Like every Backend method, each may block on I/O and is
// called only from inside a tea.Cmd with a bounded context, from a
// goroutine of its own: implementations must be safe for concurrent use.
type Inbox interface {
	// PendingApprovals lists the waiting calls, oldest first.
	PendingApprovals(ctx context.Context) ([]InboxItem, error)
	// AnswerApproval answers the call with correlationID of the run with
	// runID. It fails with one sentence when the run no longer waits for it
	// (it timed out or ended); the decision then reaches nobody.
	AnswerApproval(ctx context.Context, runID, correlationID string, d agent.Decision) error
	// AnswerInput answers a server's question (an item with a Question,
	// SPEC B12) asked during the call correlationID of the run with runID;
	// it fails like AnswerApproval when the question no longer waits.
	AnswerInput(ctx context.Context, runID, correlationID string, a tool.Answer) error
	// InboxChanges delivers the number of waiting calls each time it
	// changes. Only the latest count matters: the implementation keeps at
	// most one unread value (replacing an older one) and never blocks on
	// it. Every call returns the same channel (nil: counts are not
	// delivered); it is closed when vouch stops delivering.
	InboxChanges() <-chan int
}

// InboxItem is view.InboxItem (internal/view), as the application returns it.
type InboxItem = view.InboxItem

// InboxMsg carries PendingApprovals for load Seq.
type InboxMsg struct {
	Seq   int
	Items []InboxItem
	Err   error
}

// InboxAnsweredMsg carries AnswerApproval.
type InboxAnsweredMsg struct {
	RunID, Correlation string
	Allow              bool
	Err                error
}

// InboxCountMsg is the number of calls waiting in the inbox; Closed says
// the channel of counts was closed and is not watched any more.
type InboxCountMsg struct {
	Count  int
	Closed bool
	Err    error
}

func loadInbox(ib Inbox, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		items, err := ib.PendingApprovals(ctx)
		if err != nil {
			err = fmt.Errorf("could not list the calls waiting for approval: %w", err)
		}
		return InboxMsg{Seq: seq, Items: items, Err: err}
	}
}

// AnswerInbox sends the person's decision to the background run that waits.
func AnswerInbox(ib Inbox, runID, correlation string, d agent.Decision) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := ib.AnswerApproval(ctx, runID, correlation, d)
		if err != nil {
			err = fmt.Errorf("the answer did not reach the run: %w", err)
		}
		return InboxAnsweredMsg{RunID: runID, Correlation: correlation, Allow: d.Allow, Err: err}
	}
}

// InboxInputMsg carries AnswerInput.
type InboxInputMsg struct {
	RunID, Correlation string
	Said               string // the answer in words, as the pane's status says it
	Err                error
}

// AnswerInboxInput sends the person's answer to a background run's question.
func AnswerInboxInput(ib Inbox, runID, correlation string, a tool.Answer, said string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := ib.AnswerInput(ctx, runID, correlation, a)
		if err != nil {
			err = fmt.Errorf("the answer did not reach the run: %w", err)
		}
		return InboxInputMsg{RunID: runID, Correlation: correlation, Said: said, Err: err}
	}
}

// CountInbox reads the number of waiting calls once, at start.
func CountInbox(ib Inbox) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		items, err := ib.PendingApprovals(ctx)
		if err != nil {
			return InboxCountMsg{Err: fmt.Errorf("could not count the calls waiting for approval: %w", err)}
		}
		return InboxCountMsg{Count: len(items)}
	}
}

// WatchInbox waits for the next count on ch; the root re-arms it after
// each one, like the stream reader (STYLE habit 7: counts are snapshots,
// so only the latest matters).
func WatchInbox(ch <-chan int) tea.Cmd {
	return func() tea.Msg {
		n, ok := <-ch
		if !ok {
			return InboxCountMsg{Closed: true}
		}
		return InboxCountMsg{Count: n}
	}
}
