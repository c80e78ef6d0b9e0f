package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestRuleEditorAt60x16 (SPEC L6, D6): classify on the smallest terminal
// opens the rule editor whole — its frame closed above the input, the
// tool, a constraint, the note and when the rule applies on screen — in
// the 9 rows a modal has there; the frame is exactly the window.
func TestRuleEditorAt60x16(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	m, _ = update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	m, _ = classify(t, m, pb, clk)
	v := m.View()
	if n := strings.Count(v, "\n") + 1; n != 16 {
		t.Errorf("the frame has %d lines, want 16", n)
	}
	flat := ansi.Strip(v)
	for _, want := range []string{"Classify this tool", "export_csv", "[ ] path", "note", "Applies to new runs", "╰"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the screen lacks %q:\n%s", want, flat)
		}
	}
}
