package main

import (
	"strings"
	"testing"
)

// TestApproveTTYLinesOnPTY (issue 18 item 19): on a real pty, where
// stdout, stderr and the question share the screen, the answer streamed
// before a tool call ends its line: the tool line and the question start
// on lines of their own, never after "Taking notes now. ".
func TestApproveTTYLinesOnPTY(t *testing.T) {
	gate := make(chan struct{})
	close(gate)
	r := startTTYRun(t, gate)
	mark := r.waitFor(0, ptyQuestion)
	r.typ("n\n")
	mark = r.waitFor(mark, `"beta"`)
	mark = r.waitFor(mark, ptyQuestion)
	r.typ("n\n")
	r.waitFor(mark, "Both notes are settled.")
	r.wantExit()
	out := strings.ReplaceAll(r.term.Output(), "\r", "")
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Taking notes") && (strings.Contains(line, "vouch:") || strings.Contains(line, ptyQuestion)) {
			t.Errorf("the answer and another stream share a line: %q\nthe terminal shows:\n%s", line, out)
		}
	}
	if !strings.Contains(out, "Taking notes now.\n") && !strings.Contains(out, "Taking notes now. \n") {
		t.Errorf("the answer's line does not end before the tool line:\n%s", out)
	}
}
