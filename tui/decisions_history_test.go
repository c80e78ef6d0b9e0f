package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/policy"
)

// decidingBackend is a fakeBackend whose stored calls have decisions
// (chat.DecisionReader), as the session's decision audit keeps them.
type decidingBackend struct {
	*fakeBackend
	decisions map[string]view.CallDecision
	err       error

	mu    sync.Mutex
	asked string // the IDs of the last call
}

func (d *decidingBackend) CallDecisions(_ context.Context, ids []string) (map[string]view.CallDecision, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = strings.Join(ids, " ")
	out := map[string]view.CallDecision{}
	for _, id := range ids {
		if dec, ok := d.decisions[id]; ok {
			out[id] = dec
		}
	}
	return out, d.err
}

// decidedConversation is a stored turn whose four calls were decided
// four ways, and a fifth stored before decisions were kept.
func decidedConversation() ([]agent.Message, map[string]view.CallDecision) {
	call := func(id, name string) agent.ToolCall {
		return agent.ToolCall{ID: "m-" + id, CorrelationID: id, WireName: name, Identity: "builtin:" + name, Arguments: `{}`}
	}
	calls := []agent.ToolCall{call("c-rule", "fs_read"), call("c-read", "fs_list"), call("c-once", "fs_write"), call("c-deny", "fs_edit"), call("c-old", "fs_read")}
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "Tidy the notes"}, {Role: agent.RoleAssistant, ToolCalls: calls}}
	for _, c := range calls {
		msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: c.ID, Content: "ok"})
	}
	msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: "Done."})
	return msgs, map[string]view.CallDecision{
		"c-rule": {Outcome: string(policy.OutcomeAutoAllow), By: policy.ByRule},
		"c-read": {Outcome: string(policy.OutcomeAutoAllow), By: policy.ByDefault},
		"c-once": {Outcome: string(policy.OutcomeAllowed), By: policy.ByPerson},
		"c-deny": {Outcome: string(policy.OutcomeDenied), By: policy.ByPerson, Note: "not that file"},
	}
}

// TestReopenedCallsKeepTheirDecisionLines (issue 28 item 10): a reopened
// conversation shows under each stored call the decision line it had
// while the run went — by rule, by the default for reads, allowed once,
// denied with the note — read from the decision audit; a call stored
// with no decision says nothing rather than guess. At 80x24 and 60x16.
func TestReopenedCallsKeepTheirDecisionLines(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			msgs, decisions := decidedConversation()
			b := &decidingBackend{fakeBackend: newFakeBackend(), decisions: decisions}
			b.history = msgs
			m := startBackend(t, b, Options{})
			m, _ = update(m, tea.WindowSizeMsg{Width: size.w, Height: size.h})
			b.mu.Lock()
			got := b.asked
			b.mu.Unlock()
			if got != "c-rule c-read c-once c-deny c-old" {
				t.Errorf("decisions asked for %q", got)
			}
			notes := map[string]string{}
			for _, it := range m.chat.Items {
				notes[it.Call.CorrelationID] = it.Note
			}
			for id, want := range map[string]string{
				"c-rule": "allowed by your rule",
				"c-read": "allowed by vouch's default for reads of the workspace",
				"c-once": "allowed once",
				"c-deny": "denied: not that file",
				"c-old":  "",
			} {
				if notes[id] != want {
					t.Errorf("call %s: line %q, want %q", id, notes[id], want)
				}
			}
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}

// TestReopenedDecisionLinesUnreadable: an audit that cannot be read
// leaves the calls without lines and says so in one sentence; the
// conversation still shows.
func TestReopenedDecisionLinesUnreadable(t *testing.T) {
	msgs, decisions := decidedConversation()
	b := &decidingBackend{fakeBackend: newFakeBackend(), decisions: decisions, err: errTest}
	b.history = msgs
	m := startBackend(t, b, Options{})
	v := ansi.Strip(m.View())
	if strings.Contains(v, "(allowed") || !strings.Contains(v, "Done.") {
		t.Errorf("the conversation with an unreadable audit:\n%s", v)
	}
	if !strings.Contains(m.status.err, "Could not read what was decided on the conversation's tool calls") {
		t.Errorf("status: %q", m.status.err)
	}
}

// TestLiveAndReopenedCountTheSame (issue 28 item 4): the quit summary
// counts a conversation with tool calls as the reopened one counts its
// stored messages — the person's and the model's answers in words, not
// the turn that only called a tool nor its result.
func TestLiveAndReopenedCountTheSame(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "list the files")
	call := agent.ToolCall{ID: "m1", CorrelationID: "c1", WireName: "fs_list", Identity: "builtin:fs_list", Arguments: `{}`}
	stored := []agent.Message{
		{Role: agent.RoleUser, Content: "list the files"},
		{Role: agent.RoleAssistant, Content: "Let me look.", ToolCalls: []agent.ToolCall{call}},
		{Role: agent.RoleTool, ToolCallID: "m1", Content: "README.md"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{call}}, // a turn with no words
		{Role: agent.RoleTool, ToolCallID: "m1", Content: "README.md"},
		{Role: agent.RoleAssistant, Content: "The workspace holds README.md."},
	}
	m, _ = deliver(t, m, b, wait,
		agent.TextDelta{Text: "Let me look."}, agent.ToolCallStarted{Call: call}, agent.ToolCallFinished{Call: call, Result: "README.md"},
		agent.ToolCallStarted{Call: call}, agent.ToolCallFinished{Call: call, Result: "README.md"},
		agent.TextDelta{Text: "The workspace holds README.md."}, agent.Done{Reason: agent.StopDone, Messages: stored[1:]})
	live := m.QuitSummary()
	if !strings.HasPrefix(live, "vouch: conversation saved (3 messages)") {
		t.Errorf("live quit summary: %q", live)
	}
	again := newFakeBackend()
	again.history = stored
	reopened := startModel(t, again, Options{}).QuitSummary()
	if head := strings.SplitN(reopened, "\n", 2)[0]; head != strings.SplitN(live, "\n", 2)[0] {
		t.Errorf("reopened %q, live %q", head, strings.SplitN(live, "\n", 2)[0])
	}
}
