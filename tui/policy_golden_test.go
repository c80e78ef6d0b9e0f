package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/ruleedit"
	"vouch/tui/settings"
	tuipolicy "vouch/tui/settings/policy"
)

// writeDiff is the preview builtin:fs_write gives for writeCall, with a
// tab, an escape sequence and a bidi override in the new text.
func writeDiff() string {
	return "--- a/notes/todo.md\n+++ b/notes/todo.md\n@@ -1,3 +1,4 @@\n - buy milk\n-- ship vouch\n" +
		"+- ship vouch \x1b[2Jtoday\n+\tthen rest \u202eexe.txt\n  call Ana\n"
}

// writeRequest is writeCall as the policy asks about it, with its diff.
func writeRequest(preview string) agent.ApprovalRequested {
	return agent.ApprovalRequested{Call: writeCall, Tool: writeTool,
		Reason: "Anything that writes asks, every time.", Effect: "mutating", Preview: preview}
}

// longDiff is a diff of n added lines.
func longDiff(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/notes/long.md\n+++ b/notes/long.md\n@@ -0,0 +1,%d @@\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "+line %d\n", i)
	}
	return b.String()
}

// TestGoldenPolicy pins the policy's frames at 80x24: the approval pane
// with a diff preview, the rule editor, and Settings › Policy (SPEC D1,
// D3, D4, L1, L2). Regenerate with
// go test ./tui/ -run TestGoldenPolicy -update.
func TestGoldenPolicy(t *testing.T) {
	tests := []struct {
		name  string
		setup func(*policyBackend)
		drive func(*testing.T, Model, *policyBackend, *clock) Model
	}{
		{
			// The policy's reason and effect; the diff above the arguments,
			// +/-/@@ kept, the escape and the bidi override visible, the
			// tab expanded; classify offered.
			name: "approval_diff",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m, _, _ = askWith(t, m, pb.fakeBackend, writeRequest(writeDiff()))
				return m
			},
		},
		{
			// A long diff is folded; scrolled down, its fold marker and
			// the arguments below it.
			name: "approval_diff_folded",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m, _, _ = askWith(t, m, pb.fakeBackend, writeRequest(longDiff(40)))
				clk.advance(time.Second)
				m, _ = update(m, keyPgDn)
				return m
			},
		},
		{
			// Classify: pre-filled from the call; ask and mutating chosen;
			// path offered under its folder, off; the URL and mode as
			// one-of; the argument with an escape not offered.
			name: "rule_editor_from_call",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m, _ = classify(t, m, pb, clk)
				return m
			},
		},
		{
			// The PolicyEditor's sentence under the form; every field kept.
			name:  "rule_editor_save_error",
			setup: func(pb *policyBackend) { pb.saveErr = errors.New("anything that writes asks") },
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m, _ = classify(t, m, pb, clk)
				m, _ = update(m, keyRight)
				m, _ = update(m, keyTab)
				m, _ = update(m, keyTab)
				m, _ = update(m, keySpace)
				return press[ruleedit.SavedMsg](t, m, keyEnter)
			},
		},
		{
			// Rules and recent decisions, newest first, with a hostile
			// identity, note and audit record neutralised.
			name: "policy_page",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				return openPolicy(t, m)
			},
		},
		{
			// The second rule selected: its full identity and note.
			name: "policy_page_hostile_selected",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m = openPolicy(t, m)
				m, _ = update(m, keyDown)
				return m
			},
		},
		{
			// Edit a stored rule: its class, effect, constraints (on, two
			// values, one with a comma) and note.
			name: "rule_editor_from_rule",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m = openPolicy(t, m)
				m, _ = update(m, keyEnter)
				return m
			},
		},
		{
			name: "policy_delete_confirm",
			drive: func(t *testing.T, m Model, pb *policyBackend, clk *clock) Model {
				m = openPolicy(t, m)
				m, _ = update(m, keyDown)
				m, _ = update(m, keyRune('x'))
				return m
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &clock{now: t0}
			pb := newPolicyBackend()
			pb.rules, pb.records = sampleRules(), sampleRecords()
			if tt.setup != nil {
				tt.setup(pb)
			}
			m := startPolicy(t, pb, clk)
			m = tt.drive(t, m, pb, clk)
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
	t.Run("policy_unavailable", func(t *testing.T) {
		m := startModel(t, newFakeBackend(), Options{})
		m, _ = update(m, keyCtrlX)
		m, _ = toPage(t, m, "Policy")
		golden.RequireEqual(t, []byte(m.View()))
	})
}

// openPolicy opens Settings on its Policy page and applies the load.
func openPolicy(t *testing.T, m Model) Model {
	t.Helper()
	m, _ = update(m, keyCtrlX)
	m, cmd := toPage(t, m, "Policy")
	m, _ = update(m, awaitMsg[tuipolicy.LoadedMsg](t, cmd))
	return m
}

// toPage presses tab in Settings until the page titled title shows, and
// returns the Cmd of the last switch.
func toPage(t *testing.T, m Model, title string) (Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for range 10 {
		s := topModal[settings.Model](t, m)
		if s.Shown().Title() == title {
			return m, cmd
		}
		m, cmd = update(m, keyTab)
	}
	t.Fatalf("no Settings page %q", title)
	return m, nil
}
