package tui

import (
	"strings"
	"testing"

	"vouch/tui/approval"
	"vouch/tui/chat"
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
	sum := strings.Join(strings.Fields(m.QuitSummary()), " ") // wrapped at words
	for _, line := range strings.Split(m.QuitSummary(), "\n") {
		if len([]rune(line)) > chat.SummaryWidth {
			t.Errorf("a line of %d runes: %q", len([]rune(line)), line)
		}
	}
	if !strings.Contains(sum, "2 calls wait in the approvals inbox; the session keeps them") || !strings.Contains(sum, "run vouch and press ctrl+e") {
		t.Errorf("the quit summary: %q", sum)
	}
}

// TestQuitSummarySaysRunsGoOn (SPEC K4; issue 28 item 4): with background
// runs still going, the summary says that the session keeps them and how
// to follow them, in lines that fit the scrollback; the demo has none.
func TestQuitSummarySaysRunsGoOn(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	if got := m.QuitSummaryWith(0); strings.Contains(got, "background") {
		t.Fatalf("no run goes on, yet: %q", got)
	}
	raw := m.QuitSummaryWith(2)
	sum := strings.Join(strings.Fields(raw), " ")
	if !strings.Contains(sum, "vouch: 2 background runs go on in the session, which keeps them until they end — run vouch and press ctrl+r to follow.") {
		t.Errorf("the quit summary: %q", raw)
	}
	for _, line := range strings.Split(raw, "\n") {
		if len([]rune(line)) > chat.SummaryWidth {
			t.Errorf("a line of %d runes: %q", len([]rune(line)), line)
		}
	}
}
