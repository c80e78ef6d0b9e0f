package clipboard

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestCopy: the sequence carries the text in base64, once plain and once
// through tmux's passthrough inside tmux; a copy over MaxBytes writes
// nothing; a write that fails says so.
func TestCopy(t *testing.T) {
	var out bytes.Buffer
	if msg := Copy(&out, "x", "hi", false)().(CopiedMsg); msg.Err != nil || out.String() != "\x1b]52;c;aGk=\a" {
		t.Fatalf("plain copy: %+v wrote %q", msg, out.String())
	}
	out.Reset()
	Copy(&out, "x", "hi", true)()
	if want := "\x1b]52;c;aGk=\a\x1bPtmux;\x1b\x1b]52;c;aGk=\a\x1b\\"; out.String() != want {
		t.Errorf("tmux copy wrote %q, want %q", out.String(), want)
	}
	out.Reset()
	if msg := Copy(&out, "big", strings.Repeat("a", MaxBytes+1), false)().(CopiedMsg); !errors.Is(msg.Err, ErrTooLong) || out.Len() != 0 || msg.What != "big" {
		t.Errorf("oversized copy: %+v, wrote %d bytes", msg, out.Len())
	}
	if msg := Copy(failing{}, "x", "hi", false)().(CopiedMsg); msg.Err == nil || !strings.Contains(msg.Err.Error(), "terminal") {
		t.Errorf("failed write: %+v", msg)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("closed") }
