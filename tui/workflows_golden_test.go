package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"vouch/tui/approval"
	"vouch/tui/settings/profiles"
	"vouch/tui/settings/runs"
	"vouch/tui/settings/tools"
	"vouch/tui/settings/workflows"
)

// TestGoldenWorkflows pins the Agent Workflows panes at 80x24: the
// Workflows and Profiles pages, the profile editor, the per-profile tool
// selection pane, the run history, one run, the approvals inbox with a call
// opened in the approval pane, and the inbox count in the status line
// (SPEC H, L1, L2). Every fixture carries hostile text. Regenerate with
// go test ./tui/ -run TestGoldenWorkflows -update.
func TestGoldenWorkflows(t *testing.T) {
	tests := []struct {
		name  string
		drive func(*testing.T, Model, *fakeWorkflows, *clock) Model
	}{
		{
			name: "workflows_page",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m, _ = update(m, keyCtrlX)
				m, cmd := toPage(t, m, "Workflows")
				m, _ = update(m, awaitMsg[workflows.LoadedMsg](t, cmd))
				return m
			},
		},
		{
			name: "profiles_page",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				f.profiles["weekly"] = profiles.Profile{Name: "weekly", Definition: "release-flow", Kind: "flow",
					Tools: []string{"a", "b", "c"}, Revision: 12}
				m, _ = update(m, keyCtrlX)
				m, cmd := toPage(t, m, "Profiles")
				m, _ = update(m, awaitMsg[profiles.ListedMsg](t, cmd))
				return m
			},
		},
		{
			name: "profile_editor_new",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = pushAndLoad[profiles.FormMsg](t, m, profiles.NewEditor(m.common.Common, m.profileKeys(), f, ""))
				m = typeText(m, "release")
				m, _ = update(m, keyTab)
				m, _ = update(m, keyRight)
				m, _ = update(m, keyRight)
				return m
			},
		},
		{
			name: "profile_editor_error",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = pushAndLoad[profiles.FormMsg](t, m, profiles.NewEditor(m.common.Common, m.profileKeys(), f, ""))
				m = typeText(m, "Release Notes")
				m, _ = update(m, keyEnter)
				return m
			},
		},
		{
			name: "profile_editor_skills",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = pushAndLoad[profiles.FormMsg](t, m, profiles.NewEditor(m.common.Common, m.profileKeys(), f, "daily-report"))
				m = toField(t, m, profiles.FieldSkills)
				m, _ = update(m, keyDown)
				return m
			},
		},
		{
			name: "profile_editor_policy",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = pushAndLoad[profiles.FormMsg](t, m, profiles.NewEditor(m.common.Common, m.profileKeys(), f, "daily-report"))
				m = toField(t, m, profiles.FieldSkills)
				m, _ = update(m, keyRune('p'))
				return m
			},
		},
		{
			name: "profile_tools",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = pushAndLoad[tools.ListedMsg](t, m, profiles.NewTools(m.common.Common, m.profileKeys(), f, "daily-report"))
				m = cursorTo(t, m, "read_file")
				m = press[tools.ToggledMsg](t, m, keySpace)
				m = cursorTo(t, m, "write_file")
				return m
			},
		},
		{
			name: "profile_tools_filter",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = pushAndLoad[tools.ListedMsg](t, m, profiles.NewTools(m.common.Common, m.profileKeys(), f, "daily-report"))
				m, _ = update(m, keyRune('/'))
				return typeText(m, "dir")
			},
		},
		{
			name: "runs",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = press[runs.PageMsg](t, m, keyCtrlR)
				m = press[runs.PageMsg](t, m, keyRune('m'))
				m, _ = update(m, keyDown)
				return m
			},
		},
		{
			name: "run_detail",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = press[runs.PageMsg](t, m, keyCtrlR)
				return press[runs.DetailMsg](t, m, keyEnter)
			},
		},
		{
			name: "run_detail_scrolled",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = press[runs.PageMsg](t, m, keyCtrlR)
				m = press[runs.DetailMsg](t, m, keyEnter)
				m, _ = update(m, keyEnd)
				return m
			},
		},
		{
			name: "inbox",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m = press[approval.InboxMsg](t, m, keyCtrlE)
				m, _ = update(m, keyDown)
				return m
			},
		},
		{
			name: "inbox_approval",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, clk *clock) Model {
				m = press[approval.InboxMsg](t, m, keyCtrlE)
				m, _ = update(m, keyEnter)
				clk.advance(time.Second)
				return m
			},
		},
		{
			name: "status_inbox_count",
			drive: func(t *testing.T, m Model, f *fakeWorkflows, _ *clock) Model {
				m, _ = update(m, approval.InboxCountMsg{Count: 2})
				return m
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeWorkflows(t)
			sampleWorkflows(f)
			m, clk := startWorkflows(t, f)
			m = tt.drive(t, m, f, clk)
			view := m.View()
			if strings.ContainsAny(view, "\x1b\u009b\u202e\a") {
				t.Errorf("frame contains a control or bidi character: %q", view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
	t.Run("unavailable", func(t *testing.T) {
		m := startModel(t, newFakeBackend(), Options{})
		m, _ = update(m, keyCtrlX)
		m, _ = toPage(t, m, "Profiles")
		golden.RequireEqual(t, []byte(m.View()))
	})
}

// TestWorkflowPanesNoColor: with NoColor, the tool selection pane and the
// inbox drawn by a true-colour renderer have no colour codes (SPEC L1).
func TestWorkflowPanesNoColor(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	for _, noColor := range []bool{true, false} {
		m := startBackend(t, f, Options{NoColor: noColor, Renderer: colourRenderer()})
		tools := pushAndLoad[tools.ListedMsg](t, m, profiles.NewTools(m.common.Common, m.profileKeys(), f, "daily-report")).View()
		in := press[approval.InboxMsg](t, m, keyCtrlE).View()
		for name, frame := range map[string]string{"tools": tools, "inbox": in} {
			codes := colourCodes(frame)
			if noColor && len(codes) > 0 {
				t.Errorf("NO_COLOR %s frame has colour codes %q", name, codes)
			}
			if !noColor && len(codes) == 0 {
				t.Errorf("colour %s frame has no colour codes; the check is blind", name)
			}
		}
	}
}
