package approval

import (
	"vouch/agent"
	"vouch/tool"
)

// The calls waiting for the person (SPEC D4). A run publishes an
// agent.ApprovalRequested and waits for one agent.Decision on its Reply
// channel, or for its context to end. The root keeps the run's waiting
// calls in a [Queue]: the first is on screen in a [Pane], the others wait
// their turn, and each pane shown gets its own grace period. A decision is
// sent once, from a Cmd ([SendDecision]), as the call leaves the queue.
// When the run ends or is cancelled, its waiting calls disappear with
// their panes: their run no longer reads the answer.

// Request is one call waiting for the person: the call, and what local
// policy and the tool said about it — the policy's reason for asking, the
// effect the person reviewed, and the tool's preview.
type Request struct {
	Run int
	// App marks a call an MCP App view made: it waits in the apps' own
	// queue and outlives runs (the root's apps.go).
	App     bool
	Call    agent.ToolCall
	Tool    tool.Def
	Reason  string
	Effect  string
	Preview string
	// Definition is the digest of the definition the call was decided on
	// (agent.ApprovalRequested.Definition): classify hands it to the rule
	// editor so the rule binds to what this pane showed (SPEC D8).
	Definition string
	Reply      chan<- agent.Decision
	// Background, when set, is the background run the call belongs to: it
	// came from the approvals inbox (inbox.go), has no reply channel, and
	// its answer goes back through the Inbox instead of a queue.
	Background *Background
}

// Background names the background run an inbox call belongs to.
type Background struct {
	ID      string
	Profile string
}

// Queue is a run's calls waiting for the person, in the order they
// arrived. Answered counts the calls answered since the queue was last
// empty, so that the pane can say "2 of 3".
type Queue struct {
	Pending  []Request
	Answered int
}

// Add returns q with req waiting last; q's own slice is never written.
func (q Queue) Add(req Request) Queue {
	q.Pending = append(q.Pending[:len(q.Pending):len(q.Pending)], req)
	return q
}

// Next returns q without its first call, which was answered; an emptied
// queue starts counting again.
func (q Queue) Next() Queue {
	if len(q.Pending) <= 1 {
		return Queue{}
	}
	return Queue{Pending: q.Pending[1:], Answered: q.Answered + 1}
}
