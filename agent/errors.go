package agent

import (
	"errors"
	"fmt"
)

// Sentinel errors. A run's Done.Err and the errors of Client methods wrap
// one of these (test with errors.Is); their messages are one sentence that
// says what to do.
var (
	// ErrUnreachable means the model server could not be reached: the
	// connection was refused, the host is unknown, or the network is down.
	ErrUnreachable = errors.New("model server unreachable")

	// ErrTimeout means the model server accepted the request but sent
	// nothing for longer than the run's idle timeout.
	ErrTimeout = errors.New("model server timed out")

	// ErrServer means the model server answered with an error: an HTTP
	// error status, or an error object in the middle of a stream.
	ErrServer = errors.New("model server error")

	// ErrBadStream means the answer was not an OpenAI-compatible event
	// stream (HTML, plain text, chunks that are not JSON, …).
	ErrBadStream = errors.New("model server sent a malformed stream")

	// ErrDropped means the connection ended before the stream said it was
	// finished. What arrived is kept as a partial message.
	ErrDropped = errors.New("model server connection dropped")

	// ErrContextOverflow means the conversation does not fit the model's
	// effective context window, detected before inference or reported by
	// the server.
	ErrContextOverflow = errors.New("conversation exceeds the context window")

	// ErrLimit means the run reached one of its Limits (SPEC A4).
	ErrLimit = errors.New("run limit reached")

	// ErrPersist means the conversation could not be saved through the
	// Transcript; the run stops rather than continue unrecorded.
	ErrPersist = errors.New("could not save the conversation")

	// ErrToolBudget means the tools that must be sent in full (those that
	// ask the person, SPEC F3) do not fit the run's tool budget; the run
	// ends before inference. Its message names the tools and their cost.
	ErrToolBudget = errors.New("tools exceed the tool budget")

	// ErrBusy is returned by Chat.Send while a previous reply is still
	// running.
	ErrBusy = errors.New("a reply is still running; wait for it or cancel it")

	// ErrEmptyMessage is returned by Chat.Send for blank text.
	ErrEmptyMessage = errors.New("the message is empty; type something to send")

	// ErrDraftFinished is returned by Draft.Finish when called twice.
	ErrDraftFinished = errors.New("draft already finished")

	// ErrWorkflow means a workflow run (RunWorkflow) was refused before
	// its first request: the definition is invalid, a skill reference is
	// malformed, or a tool takes a name reserved for vouch's own workflow
	// tools.
	ErrWorkflow = errors.New("workflow run refused")

	// ErrOutsideWorkspace is reported (as a tool error) when a built-in
	// file tool is asked for a path outside its workspace root.
	ErrOutsideWorkspace = errors.New("path is outside the workspace")
)

// runError is an error whose message is a finished sentence for a person,
// classified by a sentinel and carrying the underlying cause.
type runError struct {
	kind  error
	msg   string
	cause error
}

func (e *runError) Error() string { return e.msg }

func (e *runError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// newError builds a runError of kind with a formatted one-sentence message.
func newError(kind, cause error, format string, args ...any) error {
	return &runError{kind: kind, msg: fmt.Sprintf(format, args...), cause: cause}
}
