package panics

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrInternal means code that runs a model, a tool or a server panicked:
// a bug in vouch or in a tool, never the person's doing. The run (or
// whatever was running) failed; the process goes on. Done.Err is then an
// *InternalError, which carries the stack for the run's history.
var ErrInternal = errors.New("internal error")

// MaxPanicStack bounds the stack an InternalError keeps.
const MaxPanicStack = 12 << 10

// InternalError is a panic turned into an error by Recover. Its message is
// one sentence for the person; Value and Stack are for the run's events
// (SPEC H7), where a report can quote them.
type InternalError struct {
	// Subject is what failed ("the run"), What where the panic happened
	// ("the tool fs_read", "the model stream").
	Subject, What string
	// Value is the panic value as text; Stack the panicking goroutine's
	// stack, at most MaxPanicStack bytes.
	Value, Stack string
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("%s failed: an internal error in %s; the stack is in the run's events — please report it", e.Subject, e.What)
}

// Is reports ErrInternal.
func (e *InternalError) Is(target error) bool { return target == ErrInternal }

// Report is the text a run's history keeps: the panic value, then the
// stack.
func (e *InternalError) Report() string {
	return fmt.Sprintf("internal error in %s: panic: %s\n\n%s", e.What, e.Value, e.Stack)
}

// Recover, deferred directly in a goroutine that runs model, tool or
// server code, turns a panic into an *InternalError handed to report;
// without a panic it does nothing. It is the one recover of the program:
//
//	defer panics.Recover("the run", "the tool x", func(e *panics.InternalError) { … })
//
// report runs in the panicking goroutine after the panic unwound; it
// should end what was running as failed (a Done, a failed history record).
func Recover(subject, what string, report func(*InternalError)) {
	p := recover()
	if p == nil {
		return
	}
	report(NewInternalError(subject, what, p, debug.Stack()))
}

// NewInternalError describes panic value p with stack (from debug.Stack):
// the frames of the panic machinery itself are left out and the rest is
// cut at MaxPanicStack.
func NewInternalError(subject, what string, p any, stack []byte) *InternalError {
	// debug.Stack starts with the goroutine line, then debug.Stack, Recover
	// and panic frames (two lines each); keep the goroutine line and start
	// at the frame that panicked.
	if i := bytes.Index(stack, []byte("panic(")); i >= 0 {
		if j := bytes.IndexByte(stack[i:], '\n'); j >= 0 {
			if k := bytes.IndexByte(stack[i+j+1:], '\n'); k >= 0 {
				head := stack[:bytes.IndexByte(stack, '\n')+1]
				stack = append(append([]byte(nil), head...), stack[i+j+1+k+1:]...)
			}
		}
	}
	if len(stack) > MaxPanicStack {
		stack = append(stack[:MaxPanicStack:MaxPanicStack], "\n…(cut)"...)
	}
	return &InternalError{Subject: subject, What: what, Value: fmt.Sprint(p), Stack: string(stack)}
}
