package tui

import (
	"context"
	"strings"
	"testing"

	"vouch/agent"
)

// countingBackend is a fakeBackend whose stored conversation holds more
// messages than it shows (chat.Counter), as a long one does: the
// interface loads its newest records.
type countingBackend struct {
	*fakeBackend
	stored int
}

func (c countingBackend) StoredMessages(context.Context) (int, error) { return c.stored, nil }

// TestQuitSummaryCountsWhatIsNotShown (issue 28 item 4): a reopened
// conversation shown in part counts, in the quit summary, every message
// the conversation list counts — those shown and those before — and one
// sent since.
func TestQuitSummaryCountsWhatIsNotShown(t *testing.T) {
	b := countingBackend{fakeBackend: newFakeBackend(), stored: 1200}
	b.history = []agent.Message{
		{Role: agent.RoleUser, Content: "message 1198"},
		{Role: agent.RoleAssistant, Content: "answer 1199"},
	}
	m := startBackend(t, b, Options{})
	if sum := m.QuitSummary(); !strings.HasPrefix(sum, "vouch: conversation saved (1200 messages)") {
		t.Fatalf("quit summary: %q", sum)
	}
	m, wait := sendText(t, m, "one more")
	m, _ = deliver(t, m, b.fakeBackend, wait, agent.TextDelta{Text: "Sure."}, agent.Done{Reason: agent.StopDone})
	if sum := m.QuitSummary(); !strings.HasPrefix(sum, "vouch: conversation saved (1202 messages)") {
		t.Errorf("after one more exchange: %q", sum)
	}
}
