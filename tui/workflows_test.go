package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/tui/approval"
	"vouch/tui/settings/profiles"
	"vouch/tui/settings/runs"
	"vouch/tui/settings/workflows"
)

// TestWorkflowsSwitch: space turns Agent Workflows off once the Backend
// answered; the schedules show paused and the note says schedules are not
// a server (SPEC H1, H6).
func TestWorkflowsSwitch(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	p := workflows.New(m.common.Common, m.common.Keys.Workflow.Switch, f).SetSize(76, 14)
	p, cmd := p.Focus()
	p, _, _ = p.Update(awaitMsg[workflows.LoadedMsg](t, cmd))
	if view := ansi.Strip(p.View()); !strings.Contains(view, "● on") || !strings.Contains(view, "Schedules are not a server") {
		t.Fatalf("page:\n%s", view)
	}
	p, _, cmd = p.Update(keySpace)
	if !p.(workflows.Page).On() {
		t.Fatal("switch moved before the Backend answered")
	}
	p, _, cmd = p.Update(awaitMsg[workflows.SetMsg](t, cmd))
	p, _, _ = p.Update(awaitMsg[workflows.LoadedMsg](t, cmd))
	view := flat(p.View())
	for _, want := range []string{"○ off", "nothing was deleted", "paused: Agent Workflows is off"} {
		if !strings.Contains(view, want) {
			t.Errorf("page lacks %q:\n%s", want, view)
		}
	}
	if _, _, _, sw := f.recorded(); !slices.Equal(sw, []bool{false}) {
		t.Errorf("SetWorkflowsEnabled calls = %v, want [false]", sw)
	}
	if k := p.(workflows.Page).Keys().Toggle.Help().Desc; k != "turn on" {
		t.Errorf("toggle help = %q, want turn on", k)
	}
}

// TestWorkflowsSwitchFails: a refusal keeps the switch and says why.
func TestWorkflowsSwitchFails(t *testing.T) {
	f := newFakeWorkflows(t)
	f.switchErr = errors.New("the database is read-only")
	m, _ := startWorkflows(t, f)
	p := workflows.New(m.common.Common, m.common.Keys.Workflow.Switch, f).SetSize(76, 14)
	p, cmd := p.Focus()
	p, _, _ = p.Update(awaitMsg[workflows.LoadedMsg](t, cmd))
	p, _, cmd = p.Update(keySpace)
	p, _, _ = p.Update(awaitMsg[workflows.SetMsg](t, cmd))
	if !p.(workflows.Page).On() || !strings.Contains(flat(p.View()), "Could not turn off Agent Workflows: the database is read-only.") {
		t.Errorf("after a refusal:\n%s", p.View())
	}
}

// openInboxAt starts a model over f and opens the inbox with ctrl+e.
func openInboxAt(t *testing.T, f *fakeWorkflows) (Model, *clock) {
	t.Helper()
	m, clk := startWorkflows(t, f)
	m = press[approval.InboxMsg](t, m, keyCtrlE)
	return m, clk
}

var keyCtrlE = tea.KeyMsg{Type: tea.KeyCtrlE}

// TestRunHistory: ctrl+r lists runs newest first a page at a time; m and
// reaching the end fetch older ones; enter opens one with what it froze,
// its calls with correlation IDs, approvals, events and outcome (SPEC H7).
func TestRunHistory(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	m = press[runs.PageMsg](t, m, keyCtrlR)
	l := topModal[runs.List](t, m)
	if len(l.Runs()) != 2 || l.Next() != "r-104" {
		t.Fatalf("first page: %d runs, next %q", len(l.Runs()), l.Next())
	}
	m = press[runs.PageMsg](t, m, keyRune('m'))
	if l := topModal[runs.List](t, m); len(l.Runs()) != 4 || l.Next() != "" || l.Keys().More.Enabled() {
		t.Errorf("after m: %d runs, next %q, more enabled %v", len(l.Runs()), l.Next(), l.Keys().More.Enabled())
	}
	if f.pages[0] != "" || f.pages[1] != "r-104" {
		t.Errorf("pages asked = %v", f.pages)
	}
	view := m.View()
	for _, want := range []string{"missed", "failed", "waiting for appr…", "headless"} {
		if !strings.Contains(view, want) {
			t.Errorf("list lacks %q:\n%s", want, view)
		}
	}
	m = press[runs.DetailMsg](t, m, keyEnter)
	d := topModal[runs.DetailPane](t, m)
	body := ansi.Strip(strings.Join(d.Body(), "\n"))
	for _, want := range []string{"Frozen specification", "Profile revision  4", "reviewer, revision 3",
		"files__read_file → mcp:s1:read_file", "1. style-guide 2.0.0 sha256:9f2c41d0", "4 rules · 3a9f01",
		"c-2  files__write_file → mcp:s1:write_file", "Approvals (1)", "skill_load style-guide"} {
		if !strings.Contains(body, want) {
			t.Errorf("run lacks %q:\n%s", want, body)
		}
	}
	m, _ = update(m, keyEnd)
	if d := topModal[runs.DetailPane](t, m); d.Scroll() == 0 {
		t.Error("end did not scroll")
	}
	m, _ = update(m, keyEsc)
	topModal[runs.List](t, m)
}

// TestWorkflowKeysNeedTheirCapabilities: without RunHistory or Inbox the
// chat keys are off, and help does not offer them.
func TestWorkflowKeysNeedTheirCapabilities(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	if m.keys.Runs.Enabled() || m.keys.Inbox.Enabled() {
		t.Error("ctrl+r or ctrl+e enabled without the capabilities")
	}
	m, _ = update(m, keyCtrlR)
	if !m.modals.empty() {
		t.Errorf("ctrl+r opened %T", m.modals.top())
	}
	f := newFakeWorkflows(t)
	m, _ = startWorkflows(t, f)
	m, _ = update(m, keyHelp)
	if view := m.View(); !strings.Contains(view, "ctrl+r run history") || !strings.Contains(view, "ctrl+e approvals inbox") {
		t.Errorf("full help lacks the keys:\n%s", view)
	}
}

// TestProfileListActions: n and enter open the editor, t the tool pane;
// x asks first (Cancel by default) and removes only when confirmed.
func TestProfileListActions(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	m, _ = update(m, keyCtrlX)
	m, cmd := toPage(t, m, "Profiles")
	m, _ = update(m, awaitMsg[profiles.ListedMsg](t, cmd))
	for _, tc := range []struct {
		key  tea.KeyMsg
		want string
	}{{keyRune('n'), "New profile"}, {keyEnter, "Edit profile daily-report"}, {keyRune('t'), "Tools of profile daily-report"}} {
		next, _ := update(m, tc.key)
		if !strings.Contains(next.View(), tc.want) {
			t.Errorf("%s: frame lacks %q:\n%s", tc.key, tc.want, next.View())
		}
	}
	m, _ = update(m, keyRune('x'))
	m, _ = update(m, keyEnter) // Cancel
	if got := f.removedNames(); len(got) != 0 {
		t.Fatalf("removed without confirmation: %v", got)
	}
	m, _ = update(m, keyRune('x'))
	m, _ = update(m, keyRight)
	m, cmd = update(m, keyEnter)
	m, cmd = update(m, awaitMsg[profiles.RemovedMsg](t, cmd))
	m, _ = update(m, awaitMsg[profiles.ListedMsg](t, cmd))
	if got := f.removedNames(); !slices.Equal(got, []string{"daily-report"}) {
		t.Errorf("removed = %v", got)
	}
	if view := flat(m.View()); !strings.Contains(view, "Removed daily-report; its past runs stay in the run history.") ||
		!strings.Contains(view, "No profiles yet") {
		t.Errorf("after removing:\n%s", m.View())
	}
}
