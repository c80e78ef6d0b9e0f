package tui

import (
	"strings"
	"testing"

	"vouch/tui/approval"
)

// TestQuitSummarySaysWhatTheSessionKeeps (SPEC K4, L6; issue 28 item 4):
// quitting while a background run's call waits in the inbox leaves a line
// saying that the session keeps it and how to return; without one, the
// summary says nothing of it.
func TestQuitSummarySaysWhatTheSessionKeeps(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	if strings.Contains(m.QuitSummary(), "inbox") {
		t.Fatalf("nothing waits, yet: %q", m.QuitSummary())
	}
	m, _ = update(m, approval.InboxCountMsg{Count: 2})
	sum := m.QuitSummary()
	if !strings.Contains(sum, "2 calls wait in the approvals inbox; the session keeps them") || !strings.Contains(sum, "run vouch and press ctrl+e") {
		t.Errorf("the quit summary: %q", sum)
	}
}
