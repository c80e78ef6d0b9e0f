package tui

import (
	"strings"
	"testing"

	"vouch/tui/kit"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestApprovalKeepsTheLastLinesAbove (SPEC L1, D4; issue 28 item 9): at
// 120x40 a tool approval leaves room, so the model's last lines stay
// whole above it, and the frame is the screen's size.
func TestApprovalKeepsTheLastLinesAbove(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	m, _ = update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _, _ = askWith(t, m, pb.fakeBackend, writeRequest(writeDiff()))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "Tool call waiting for your approval") {
		t.Fatalf("no pane:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	if len(lines) != 40 {
		t.Errorf("%d lines at 120x40", len(lines))
	}
	top := 0
	for i, l := range lines {
		if strings.Contains(l, "╭") {
			top = i
			break
		}
	}
	if top < kit.MinLinesAbovePane || strings.TrimSpace(strings.Join(lines[:top], "")) == "" {
		t.Errorf("at 120x40 nothing of the transcript shows above the pane (it starts on line %d):\n%s", top, v)
	}
	if !strings.Contains(strings.Join(lines[:top], "\n"), "Export the data") {
		t.Errorf("the person's message is not above the pane:\n%s", v)
	}
}
