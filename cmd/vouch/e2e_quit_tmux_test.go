package main

import (
	"strings"
	"testing"
)

// TestE2ETmuxSmallWindowAndQuitSummary drives the built binary at the
// minimum size, 60x16 (SPEC L6; issue 18 item 21): the demo is usable
// there — a prompt typed and answered —, below it the screen says what size
// vouch needs, and quitting leaves the summary in the terminal after the
// alternate screen is gone. The shell keeps the pane open to read it.
func TestE2ETmuxSmallWindowAndQuitSummary(t *testing.T) {
	bin := buildVouch(t)
	s := newTmux(t, 60, 16, bin+" demo; echo vouch-exited; sleep 60")
	s.waitText("Ask anything")

	s.run("send-keys", "-t", s.name, "-l", "hello there")
	s.run("send-keys", "-t", s.name, "Enter")
	pane := s.waitFor("the answer to finish", func(p string) bool {
		flat := strings.Join(strings.Fields(p), " ") // the answer wraps at 60 columns
		return strings.Contains(flat, "I am the vouch demo model") && strings.Contains(flat, "streamed Markdown answer") && !strings.Contains(flat, "esc to interrupt")
	})
	for i, line := range strings.Split(strings.TrimRight(pane, "\n"), "\n") {
		if w := len([]rune(line)); w > 60 {
			t.Fatalf("line %d is %d cells wide at 60 columns: %q", i, w, line)
		}
	}

	s.run("resize-window", "-t", s.name, "-x", "59", "-y", "15")
	s.waitText("Terminal too small: 59x15; vouch needs 60x16.")
	s.run("resize-window", "-t", s.name, "-x", "60", "-y", "16")
	s.waitText("Ask anything")

	s.run("send-keys", "-t", s.name, "C-c")
	pane = s.waitText("vouch-exited")
	if !strings.Contains(pane, "vouch demo: 2 messages, not kept") || !strings.Contains(pane, "You: hello there") {
		t.Fatalf("no quit summary after vouch left the alternate screen:\n%s", pane)
	}
}
