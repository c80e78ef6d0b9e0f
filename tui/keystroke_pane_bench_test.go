package tui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// BenchmarkKeystrokePane is one typed character (Update plus View) while
// a tool approval pane is open over a 10,000-message transcript at 80x24
// and a reply streams: the key goes on into the message (SPEC D7, issue 30
// "Speed"). It uses only what the tree before issue 30 has too, where such
// a key arrived while the pane settled, so docs/BENCHMARKS.md compares
// the two in one run. The clock moves 100 ms a key, a person's pace.
func BenchmarkKeystrokePane(b *testing.B) {
	now := t0
	m := keystrokeModel(b, 10000, true)
	m.common.Now = func() time.Time { return now }
	m, _ = m.requestApproval(m.run.id, agent.ApprovalRequested{Call: readCall, Tool: readTool, Reply: make(chan agent.Decision, 1)})
	if m.modals.empty() {
		b.Fatal("no approval pane")
	}
	_ = m.View()
	key := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'x'}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%200 == 0 {
			m.input.Reset()
		}
		i++
		now = now.Add(100 * time.Millisecond)
		m, _ = update(m, key)
		_ = m.View()
	}
	if m.modals.empty() || len(m.run.approvals.Pending) != 1 {
		b.Fatal("a key answered the pane")
	}
}
