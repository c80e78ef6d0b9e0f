package tui

import (
	"testing"

	"vouch/agent"
)

// BenchmarkKeystrokePane is one typed character (Update plus View) while
// a tool approval pane is open over a 10,000-message transcript at 80x24
// and a reply streams: the key goes on into the message (SPEC D7, issue 30
// "Speed"). It uses only what the tree before issue 30 has too, where such
// a key arrived while the pane settled, so docs/BENCHMARKS.md compares
// the two in one run.
func BenchmarkKeystrokePane(b *testing.B) {
	m := keystrokeModel(b, 10000, true)
	m, _ = m.requestApproval(m.run.id, agent.ApprovalRequested{Call: readCall, Tool: readTool, Reply: make(chan agent.Decision, 1)})
	if m.modals.empty() {
		b.Fatal("no approval pane")
	}
	typeKeys(b, m) // keystroke_bench_test.go: one key, Update and View
}
