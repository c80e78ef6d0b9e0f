package panics

import (
	"errors"
	"strings"
	"testing"
)

// run calls f in a goroutine of its own with Recover deferred, as every
// caller does, and returns what Recover reported (nil for none).
func run(f func()) *InternalError {
	got := make(chan *InternalError, 1)
	go func() {
		reported := false
		defer func() {
			if !reported {
				got <- nil
			}
		}()
		defer Recover("the run", "the tool x", func(e *InternalError) { reported = true; got <- e })
		f()
	}()
	return <-got
}

//go:noinline
func panickingFrame() { panic("boom") }

// TestRecoverReports: a panic becomes one sentence for the person, the
// value and a stack that starts at the frame that panicked — not at
// debug.Stack, Recover or the runtime's panic (SPEC H7).
func TestRecoverReports(t *testing.T) {
	e := run(panickingFrame)
	if e == nil {
		t.Fatal("a panic was not reported")
	}
	if !errors.Is(e, ErrInternal) {
		t.Errorf("%v is not ErrInternal", e)
	}
	msg := e.Error()
	if !strings.HasPrefix(msg, "the run failed: an internal error in the tool x") || strings.Count(msg, ". ") > 0 || strings.Contains(msg, "boom") {
		t.Errorf("Error() = %q; want one sentence naming subject and place, without the panic value", msg)
	}
	if e.Value != "boom" {
		t.Errorf("Value = %q, want boom", e.Value)
	}
	lines := strings.Split(e.Stack, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "goroutine ") {
		t.Fatalf("stack does not start with its goroutine line:\n%s", e.Stack)
	}
	if !strings.Contains(lines[1], "panickingFrame") {
		t.Errorf("first frame %q, want the panicking function:\n%s", lines[1], e.Stack)
	}
	for _, noise := range []string{"runtime/debug.Stack", "panics.Recover", "panic("} {
		if strings.Contains(e.Stack, noise) {
			t.Errorf("stack keeps the panic machinery frame %q:\n%s", noise, e.Stack)
		}
	}
	if r := e.Report(); !strings.Contains(r, "panic: boom") || !strings.Contains(r, "panickingFrame") {
		t.Errorf("Report() = %q", r)
	}
}

// TestRecoverQuiet: without a panic the report is never called.
func TestRecoverQuiet(t *testing.T) {
	if e := run(func() {}); e != nil {
		t.Fatalf("reported %v without a panic", e)
	}
}

// TestRecoverNilAndErrorValues: panic(nil) (a *runtime.PanicNilError since
// Go 1.21) and an error value are reported like any other.
func TestRecoverNilAndErrorValues(t *testing.T) {
	if e := run(func() { panic(nil) }); e == nil || !strings.Contains(e.Value, "nil") {
		t.Errorf("panic(nil) reported as %+v", e)
	}
	if e := run(func() { panic(errors.New("disk on fire")) }); e == nil || e.Value != "disk on fire" {
		t.Errorf("panic(error) reported as %+v", e)
	}
}

// TestNewInternalErrorBoundsStack: a stack over MaxPanicStack is cut
// there and says so (the runtime elides frames past 100, but long paths and
// arguments still make big stacks).
func TestNewInternalErrorBoundsStack(t *testing.T) {
	stack := "goroutine 7 [running]:\n" + strings.Repeat("vouch/agent.(*Loop).step(...)\n\t/very/long/path/agent/loop.go:123 +0x1d\n", 1000)
	e := NewInternalError("the run", "the model stream", "x", []byte(stack))
	if len(e.Stack) > MaxPanicStack+len("\n…(cut)") {
		t.Errorf("stack is %d bytes, over %d", len(e.Stack), MaxPanicStack)
	}
	if !strings.HasSuffix(e.Stack, "…(cut)") {
		t.Errorf("a cut stack does not say so")
	}
	if small := NewInternalError("s", "w", "v", []byte("goroutine 1 [running]:\nf()\n")); strings.Contains(small.Stack, "cut") {
		t.Errorf("a small stack was cut: %q", small.Stack)
	}
}

// TestNewInternalErrorOddStacks: a stack without the panic frames, or an
// empty one, is kept as it is (no index out of range).
func TestNewInternalErrorOddStacks(t *testing.T) {
	for _, s := range []string{"", "goroutine 1 [running]:", "panic(", "panic(\n", "x\npanic(\ny"} {
		e := NewInternalError("s", "w", "v", []byte(s))
		if e == nil || len(e.Stack) > len(s)+len("\n…(cut)") {
			t.Errorf("stack %q: %+v", s, e)
		}
	}
}
