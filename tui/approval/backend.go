package approval

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/internal/view"
)

// ToolDescriber is an optional interface the root's Backend may implement
// so that the tool approval pane can name the server a tool comes from
// (SPEC D3). The root type-asserts its Backend and hands the pane what it
// found ([Options.Describer]); without it, the pane shows what the call
// itself says and nothing else.
//
// Like every Backend method, DescribeTool may block on I/O (a catalog read),
// so the pane calls it only from inside a tea.Cmd, with a timeout, once per
// pane shown. It must honour ctx, must not wait on a remote server (the
// cached catalog is enough), and is called from a goroutine of its own:
// implementations must be safe for concurrent use.
type ToolDescriber interface {
	// DescribeTool describes the tool with this stable identity
	// ("mcp:<serverUUID>:<toolName>" or "builtin:<name>", SPEC C1).
	DescribeTool(ctx context.Context, identity string) (ToolDescription, error)
}

// ToolDescription is view.ToolDescription (internal/view), as the application returns it.
type ToolDescription = view.ToolDescription

// ToolWatcher is an optional interface the root's Backend may implement
// so that a pane open while its tool's definition changes shows what the
// tool says now (SPEC D8; the run refuses an answer given to the old
// definition and asks again). WaitToolChange blocks until identity's
// served definition is no longer digest, or ctx ends; the pane calls it
// from a Cmd with a bounded context and calls again while it is open.
type ToolWatcher interface {
	WaitToolChange(ctx context.Context, identity, digest string) (ToolDescription, error)
}

// watchEvery bounds one WaitToolChange; an open pane asks again after it.
const watchEvery = 20 * time.Second

// ToolChangedMsg carries what WaitToolChange said; Changed is false when
// the wait ended with nothing changed.
type ToolChangedMsg struct {
	Identity string
	Digest   string // the digest the pane watched
	Changed  bool
	Desc     ToolDescription
	Err      error
}

// watchTool waits, bounded, for identity's definition to leave digest.
func watchTool(w ToolWatcher, identity, digest string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), watchEvery)
		defer cancel()
		desc, err := w.WaitToolChange(ctx, identity, digest)
		if errors.Is(err, context.DeadlineExceeded) {
			return ToolChangedMsg{Identity: identity, Digest: digest}
		}
		return ToolChangedMsg{Identity: identity, Digest: digest, Changed: true, Desc: desc, Err: err}
	}
}

// describeTimeout bounds a DescribeTool call; the pane is usable before it
// answers and after it fails.
const describeTimeout = 5 * time.Second

// DescribedMsg carries the result of ToolDescriber.DescribeTool.
type DescribedMsg struct {
	Identity string
	Desc     ToolDescription
	Err      error
}

// describeTool asks d about identity.
func describeTool(d ToolDescriber, identity string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), describeTimeout)
		defer cancel()
		desc, err := d.DescribeTool(ctx, identity)
		if err != nil {
			err = fmt.Errorf("could not look the tool up: %w", err)
		}
		return DescribedMsg{Identity: identity, Desc: desc, Err: err}
	}
}

// DecisionSentMsg reports that the decision for a call was sent. Nothing
// needs it; it names the Cmd's work for tests and traces.
type DecisionSentMsg struct {
	Correlation string
	Sent        bool // false: reply already held a decision
}

// SendDecision answers an approval request: it sends d on reply, the
// channel copied out of the agent's event. The run made reply with room for
// one decision, so the send never blocks; the root calls this once per
// request, as it removes the request from its queue. Should reply ever be
// full, the select gives up instead of blocking the program.
func SendDecision(correlation string, reply chan<- agent.Decision, d agent.Decision) tea.Cmd {
	return func() tea.Msg {
		select {
		case reply <- d:
			return DecisionSentMsg{Correlation: correlation, Sent: true}
		default:
			return DecisionSentMsg{Correlation: correlation}
		}
	}
}
