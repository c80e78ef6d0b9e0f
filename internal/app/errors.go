package app

import (
	"errors"
	"fmt"
)

// Kind says what a failed operation needs from whoever asked for it. A
// front end maps it to what it shows: cmd/vouch to an exit code (SPEC M),
// the terminal interface to a sentence in the status line.
type Kind int

const (
	// Failure is a plain failure: the operation could not be done (a
	// database that cannot be written, a file that cannot be read).
	Failure Kind = iota
	// Usage is a request that does not make sense as given: an unknown
	// name, a missing argument, a value out of range.
	Usage
	// Rejected is input vouch refuses on its merits: a skill package, a
	// rule or a server configuration that does not validate.
	Rejected
	// ApprovalNeeded is a run that stopped at a call only the person can
	// decide (SPEC D3).
	ApprovalNeeded
	// Unavailable is a peer that did not answer: the model server or an
	// MCP server is down or unreachable.
	Unavailable
)

// String names the kind, for messages and tests.
func (k Kind) String() string {
	switch k {
	case Usage:
		return "usage"
	case Rejected:
		return "rejected"
	case ApprovalNeeded:
		return "approval needed"
	case Unavailable:
		return "unavailable"
	}
	return "failure"
}

// Error is an error of a service with its Kind. Its text is one sentence
// that says what to do; Err keeps the cause for errors.Is and errors.As.
type Error struct {
	Kind Kind
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of kind k whose cause is fmt.Errorf(format,
// args...).
func Errorf(k Kind, format string, args ...any) error {
	return &Error{Kind: k, Err: fmt.Errorf(format, args...)}
}

// Wrap gives err the kind k; a nil err stays nil.
func Wrap(k Kind, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: k, Err: err}
}

// KindOf returns the kind of the first *Error in err's chain, Failure
// when there is none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Failure
}
