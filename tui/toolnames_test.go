package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
)

// namingBackend is a fakeBackend that names tools (ToolNamer).
type namingBackend struct {
	*fakeBackend
	names map[string]string
}

func (b *namingBackend) ToolName(identity string) string {
	if n, ok := b.names[identity]; ok {
		return n
	}
	return identity
}

// TestTranscriptNamesToolsByLabel (issue 18 item 9): with a Backend that
// names tools, the transcript shows "demo tools › lookup" — for stored
// calls and for a call of the run in progress — instead of
// mcp:<serverUUID>:lookup; a label is untrusted and drawn neutralised.
// Golden: testdata/TestTranscriptNamesToolsByLabel.golden (80x24).
func TestTranscriptNamesToolsByLabel(t *testing.T) {
	const uuid = "eb4aed7e-4b6e-49a4-b475-f17fa05a1b47"
	lookup := agent.ToolCall{CorrelationID: "l1", WireName: "mcp_lookup", Identity: "mcp:" + uuid + ":lookup", Arguments: `{"key":"a"}`}
	fetch := agent.ToolCall{CorrelationID: "f1", WireName: "mcp_fetch", Identity: "mcp:" + uuid + ":fetch", Arguments: `{}`}
	fb := newFakeBackend()
	fb.history = []agent.Message{
		{Role: agent.RoleUser, Content: "Look up a."},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{lookup}},
		{Role: agent.RoleTool, ToolCallID: "l1", Content: "a is 1"},
		{Role: agent.RoleAssistant, Content: "a is 1."},
	}
	b := &namingBackend{fakeBackend: fb, names: map[string]string{
		lookup.Identity: "demo tools › lookup",
		fetch.Identity:  "demo\x1b[2J tools › fetch",
	}}
	m := startBackend(t, b, Options{})
	m, wait := sendText(t, m, "Now fetch.")
	m, _ = deliver(t, m, fb, wait, agent.ToolCallStarted{Call: fetch},
		agent.ToolCallFinished{Call: fetch, Result: "fetched"}, agent.Done{Reason: agent.StopDone})
	view := m.View()
	for _, want := range []string{"⚙ demo tools › lookup", "⚙ demo tools › fetch"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	if strings.Contains(view, uuid) || strings.Contains(view, "\x1b[2J") {
		t.Errorf("view shows the server's UUID or a raw escape:\n%s", view)
	}
	golden.RequireEqual(t, []byte(view))
}

// namingPolicyBackend is a policyBackend that names tools.
type namingPolicyBackend struct {
	*policyBackend
	names map[string]string
}

func (b *namingPolicyBackend) ToolName(identity string) string {
	if n, ok := b.names[identity]; ok {
		return n
	}
	return identity
}

// TestPolicyPageNamesToolsByLabel (issue 18 item 9): Settings › Policy
// lists rules and decisions by "server › tool"; the selected rule's
// details keep the identity. Golden at 80x24.
func TestPolicyPageNamesToolsByLabel(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	pb.rules, pb.records = sampleRules(), sampleRecords()
	nb := &namingPolicyBackend{policyBackend: pb, names: map[string]string{
		csvCall.Identity:   "data exports › export_csv",
		readCall.Identity:  "files › read_file",
		"builtin:fs_write": "built-in › fs_write",
	}}
	m := startModel(t, pb.fakeBackend, Options{Now: clk.Now})
	m.backend = nb
	m = openPolicy(t, m)
	view := m.View()
	for _, want := range []string{"data exports › export_csv", "c-write-2 built-in › fs_write", csvCall.Identity} {
		if !strings.Contains(view, want) {
			t.Errorf("Policy page lacks %q", want)
		}
	}
	if strings.Contains(view, "mcp:7c1d2e3f…") {
		t.Errorf("Policy page shows a rule's identity instead of its label:\n%s", view)
	}
	golden.RequireEqual(t, []byte(view))
}

// TestApprovalNoticeNamesToolByLabel (issue 18 item 9): the status line's
// notice after an answer names the tool by label, not by identity.
func TestApprovalNoticeNamesToolByLabel(t *testing.T) {
	clk := &clock{now: t0}
	fb := newFakeBackend()
	nb := &namingBackend{fakeBackend: fb, names: map[string]string{readCall.Identity: "files › read_file"}}
	m := startBackend(t, nb, Options{Now: clk.Now})
	m, _, _ = askWith(t, m, fb, agent.ApprovalRequested{Call: readCall, Tool: readTool})
	clk.advance(time.Second)
	m, _ = update(m, keyRune('d'))
	if got := m.status.notice; !strings.Contains(got, "Denied: files › read_file") || strings.Contains(got, "mcp:") {
		t.Errorf("notice = %q, want the tool by its label", got)
	}
}

// TestPhaseLineNamesToolByLabel (issue 18 item 9): the phase line names
// the running tool as the transcript does.
func TestPhaseLineNamesToolByLabel(t *testing.T) {
	fb := newFakeBackend()
	nb := &namingBackend{fakeBackend: fb, names: map[string]string{readCall.Identity: "files › read_file"}}
	m := startBackend(t, nb, Options{})
	m, wait := sendText(t, m, "Read it.")
	m, _ = deliver(t, m, fb, wait, agent.ToolCallStarted{Call: readCall})
	if got := m.phaseWhat(); got != "running files › read_file" {
		t.Errorf("phase = %q, want the running tool by its label", got)
	}
}
