package tui

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/policy"
	"vouch/tui/approval/approvaltest"
	"vouch/tui/ruleedit"
)

// policyBackend is a fakeBackend that also implements PolicyEditor. It
// records every call; a saved rule replaces the rule of its identity, as a
// store would.
type policyBackend struct {
	*fakeBackend
	rules      []policy.Rule
	records    []policy.Record
	rulesErr   error
	recordsErr error
	saveErr    error
	deleteErr  error

	saved   []policy.Rule
	deleted []string
	asked   []int // n of each RecentDecisions call
}

func newPolicyBackend() *policyBackend {
	return &policyBackend{fakeBackend: newFakeBackend()}
}

func (p *policyBackend) Rules(context.Context) ([]policy.Rule, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]policy.Rule(nil), p.rules...), p.rulesErr
}

func (p *policyBackend) SaveRule(_ context.Context, r policy.Rule) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.saved = append(p.saved, r)
	if p.saveErr != nil {
		return p.saveErr
	}
	for i := range p.rules {
		if p.rules[i].Identity == r.Identity {
			p.rules[i] = r
			return nil
		}
	}
	p.rules = append(p.rules, r)
	return nil
}

func (p *policyBackend) DeleteRule(_ context.Context, identity string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.deleted = append(p.deleted, identity)
	if p.deleteErr != nil {
		return p.deleteErr
	}
	kept := p.rules[:0:0]
	for _, r := range p.rules {
		if r.Identity != identity {
			kept = append(kept, r)
		}
	}
	p.rules = kept
	return nil
}

func (p *policyBackend) RecentDecisions(_ context.Context, n int) ([]policy.Record, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, n)
	return append([]policy.Record(nil), p.records...), p.recordsErr
}

// calls returns copies of what the backend was asked to save and delete.
func (p *policyBackend) calls() (saved []policy.Rule, deleted []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]policy.Rule(nil), p.saved...), append([]string(nil), p.deleted...)
}

func (p *policyBackend) set(f func(*policyBackend)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(p)
}

// Calls and rules the policy tests use.
var (
	csvCall = approvaltest.CSVCall
	csvTool = approvaltest.CSVTool
)

// sampleRules are stored rules: one narrowed allow, a block with a hostile
// identity and note, and a built-in's ask.
func sampleRules() []policy.Rule {
	return []policy.Rule{
		{Identity: csvCall.Identity, Class: policy.Allow, Effect: policy.Idempotent,
			Constraints: []policy.Constraint{{Arg: "path", Kind: policy.Under, Values: []string{"/srv/data", "/srv/a,b"}}},
			Note:        "exports only", Updated: t0.Add(-3 * 24 * time.Hour)},
		{Identity: "mcp:e1:\x1b[8mhidden\x1b[0mwipe\u202e", Class: policy.Block, Effect: policy.Mutating,
			Note: "never \x1b]52;c;cm0gLXJmIH4K\x07again", Updated: t0.Add(-2 * time.Hour)},
		{Identity: "builtin:fs_write", Class: policy.Ask, Effect: policy.Mutating, Updated: t0.Add(-time.Hour)},
	}
}

// sampleRecords are audited decisions, newest last, one with a hostile
// identity and a note.
func sampleRecords() []policy.Record {
	return []policy.Record{
		{CorrelationID: "c-read-1-0123456789", Identity: readCall.Identity, Outcome: policy.OutcomeAllowed, By: "person",
			At: t0.Add(-50 * time.Minute)},
		{CorrelationID: "c-csv-3", Identity: csvCall.Identity, Outcome: policy.OutcomeAutoAllow, By: "policy rule",
			At: t0.Add(-20 * time.Minute)},
		{CorrelationID: "c-evil-9", Identity: "mcp:e1:\x1b[2J\u202ewipe", Outcome: policy.OutcomeBlocked, By: "policy rule",
			At: t0.Add(-5 * time.Minute)},
		{CorrelationID: "c-write-2", Identity: "builtin:fs_write", Outcome: policy.OutcomeDenied, By: "person",
			Note: "use \x1b[31mstaging\x1b[0m", At: t0.Add(-30 * time.Second)},
	}
}

// askWith starts a run and delivers each request (with its own Reply
// channel, room for more than one decision) after its ToolCallStarted.
func askWith(t *testing.T, m Model, b *fakeBackend, reqs ...agent.ApprovalRequested) (Model, tea.Cmd, []chan agent.Decision) {
	t.Helper()
	m, wait := sendText(t, m, "Export the data")
	var replies []chan agent.Decision
	var events []agent.Event
	for _, r := range reqs {
		reply := make(chan agent.Decision, 4)
		replies = append(replies, reply)
		r.Reply = reply
		events = append(events, agent.ToolCallStarted{Call: r.Call}, r)
	}
	m, wait = deliver(t, m, b, wait, events...)
	return m, wait, replies
}

// csvRequest is the approval request for csvCall, in the policy's words.
func csvRequest() agent.ApprovalRequested {
	return agent.ApprovalRequested{Call: csvCall, Tool: csvTool,
		Reason: "No rule classifies this tool yet, so it asks.", Effect: string(policy.Mutating)}
}

// startPolicy returns a model at 80x24 backed by pb, at the clock's time.
func startPolicy(t *testing.T, pb *policyBackend, clk *clock) Model {
	t.Helper()
	m := startModel(t, pb.fakeBackend, Options{Now: clk.Now})
	m.backend = pb
	return m
}

// classify opens the rule editor from the approval pane of csvCall, past
// both grace periods.
func classify(t *testing.T, m Model, pb *policyBackend, clk *clock) (Model, []chan agent.Decision) {
	t.Helper()
	m, _, replies := askWith(t, m, pb.fakeBackend, csvRequest())
	clk.advance(time.Second)
	m, _ = update(m, keyRune('c'))
	topModal[ruleedit.Editor](t, m)
	clk.advance(time.Second)
	return m, replies
}

// noDecision fails if reply holds a decision.
func noDecision(t *testing.T, reply chan agent.Decision) {
	t.Helper()
	select {
	case d := <-reply:
		t.Fatalf("a decision was sent: %+v", d)
	default:
	}
}
