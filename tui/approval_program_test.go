package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"vouch/agent"
	"vouch/tool"
	"vouch/tui/approval"
)

// The approval pane's tests that drive the whole program (the pane's own
// tests are in tui/approval).

// TestApprovalNoColor: with NO_COLOR the pane has no colour codes, and the
// focused button still reads as focused (SPEC L1).
func TestApprovalNoColor(t *testing.T) {
	r := colourRenderer()
	b := newFakeBackend()
	m := startModel(t, b, Options{NoColor: true, Renderer: r})
	call := readCall
	call.Arguments = hostileArgs()
	m, _, _ = ask(t, m, b, call)
	frame := m.View()
	if codes := colourCodes(frame); len(codes) > 0 {
		t.Errorf("NO_COLOR pane has colour codes %q", codes)
	}
	if !strings.Contains(ansi.Strip(frame), "[ Deny ]") {
		t.Errorf("focused button not bracketed:\n%s", ansi.Strip(frame))
	}
}

// TestProgramApproval runs the real Bubble Tea loop: the run asks, the
// pane appears, "a" after the grace period allows the call, and the run
// reads that decision from Reply and finishes.
func TestProgramApproval(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	decisions := make(chan agent.Decision, 1)
	arrived := make(chan struct{})
	b.onSend = func(ctx context.Context, events chan agent.Event) {
		reply := make(chan agent.Decision, 1)
		events <- agent.ToolCallStarted{Call: readCall}
		events <- agent.ApprovalRequested{Call: readCall, Tool: readTool, Reply: reply}
		close(arrived)
		select {
		case d := <-reply:
			decisions <- d
			events <- agent.ToolCallFinished{Call: readCall, Result: "- buy milk"}
			events <- agent.Done{Reason: agent.StopDone}
		case <-ctx.Done():
			events <- agent.Done{Reason: agent.StopCancelled}
		}
		close(events)
	}
	tm := teatest.NewTestModel(t, New(b, Options{Now: clk.Now, Clipboard: &syncBuffer{}}), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "Type a message")
	tm.Type("read my notes")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Tool call waiting for your approval")
	<-arrived
	clk.advance(DefaultKeyGrace) // the grace period itself is tested without a program
	tm.Send(keyRune('a'))
	waitFor(t, tm, "(allowed once)")
	if d := <-decisions; !d.Allow {
		t.Errorf("the run read %+v, want allow", d)
	}
	// Quit directly: a ctrl+c could still find the run finishing and cancel
	// it instead. How the run ends is covered by Update-driven tests.
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(testTimeout)).(Model)
	if !final.modals.empty() {
		t.Errorf("after the decision: %d modals still open", len(final.modals.entries))
	}
}

// BenchmarkApprovalPreview64KB: building the pane for 64 KB of arguments
// (parse, escape, lay out, fold) and drawing one frame of it. Issue 4 asks
// for the policy decision plus the preview under 1 ms.
func BenchmarkApprovalPreview64KB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"path":"notes/big.md","content":"`)
	for sb.Len() < 64<<10 {
		sb.WriteString(`line with \u001b[31mcolour\u001b[0m, \"quotes\" and unicode café 日本\n`)
	}
	sb.WriteString(`","mode":"overwrite"}`)
	req := approval.Request{Call: agent.ToolCall{CorrelationID: "c1", WireName: "mcp_files_write", Identity: "mcp:s:write",
		Arguments: sb.String()}, Tool: tool.Def{Identity: "mcp:s:write"}}
	m := New(newFakeBackend(), Options{})
	b.Run("build", func(b *testing.B) { // parse, escape, lay out, fold
		b.ReportAllocs()
		for b.Loop() {
			_ = approval.New(m.common.Common, m.common.Keys.Approval, req, 1, 1, approval.Options{Grace: DefaultKeyGrace}).SetSize(80, 18)
		}
	})
	b.Run("view", func(b *testing.B) { // one frame of the pane
		a := approval.New(m.common.Common, m.common.Keys.Approval, req, 1, 1, approval.Options{Grace: DefaultKeyGrace}).SetSize(80, 18)
		b.ReportAllocs()
		for b.Loop() {
			_ = a.View()
		}
	})
}

// TestPreviewInPane: the pane shows the preview above the arguments, which
// stay complete below it; v unfolds a long preview; in colour the diff's
// lines are styled and still start with +, - and @@, and with NO_COLOR the
// frame has no colour codes (SPEC D3, L1).
func TestPreviewInPane(t *testing.T) {
	t.Run("arguments follow", func(t *testing.T) {
		clk := &clock{now: t0}
		b := newFakeBackend()
		m := startModel(t, b, Options{Now: clk.Now})
		m, _, _ = askWith(t, m, b, writeRequest(longDiff(40)))
		a := topApproval(t, m)
		body := bodyText(a)
		if !strings.Contains(body, argumentsLabel) || !strings.Contains(body, `"path": "notes/todo.md",`) ||
			!strings.Contains(body, `"content": "- buy milk\n`) {
			t.Errorf("arguments missing below the preview:\n%s", body)
		}
		if strings.Index(body, "+line 1") > strings.Index(body, "arguments (JSON; keys in the model's order)") {
			t.Error("the preview is not above the arguments")
		}
		clk.advance(time.Second)
		m, _ = update(m, keyRune('v'))
		if body := bodyText(topApproval(t, m)); !strings.Contains(body, "+line 40") || strings.Contains(body, "more lines of the preview") {
			t.Errorf("v did not unfold the preview:\n%s", body)
		}
	})
	for _, tc := range []struct {
		name    string
		noColor bool
	}{{"no_color", true}, {"colour", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := colourRenderer()
			b := newFakeBackend()
			m := startModel(t, b, Options{NoColor: tc.noColor, Renderer: r})
			m, _, _ = askWith(t, m, b, writeRequest(writeDiff()))
			frame := m.View()
			codes := colourCodes(frame)
			if tc.noColor && len(codes) > 0 {
				t.Errorf("NO_COLOR frame has colour codes %q", codes)
			}
			if !tc.noColor && len(codes) == 0 {
				t.Error("colour frame has no colour codes; the check is blind")
			}
			plain := ansi.Strip(frame)
			for _, want := range []string{"│ --- a/notes/todo.md", "│ @@ -1,3 +1,4 @@", "│ -- ship vouch", "│ +- ship vouch ⟨U+001B⟩[2Jtoday",
				"│ +    then rest ⟨U+202E⟩exe.txt"} {
				if !strings.Contains(plain, want) {
					t.Errorf("frame lacks %q:\n%s", want, plain)
				}
			}
			if strings.ContainsAny(plain, "\x1b\u202e\t") {
				t.Errorf("frame draws a raw control character from the preview")
			}
		})
	}
}

// BenchmarkApprovalDiffPreview64KB: building the pane for a 64 KB diff
// (visible markers, wrap, fold) and drawing one frame of it (issue 4
// speed: preview rendering under 1 ms).
func BenchmarkApprovalDiffPreview64KB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("--- a/big.md\n+++ b/big.md\n@@ -0,0 +1,2000 @@\n")
	for sb.Len() < 64<<10 {
		sb.WriteString("+a line of \x1b[1mtext\x1b[0m with a\ttab\n")
	}
	m := New(newFakeBackend(), Options{})
	req := approval.Request{Call: writeCall, Tool: writeTool, Preview: sb.String()}
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = approval.New(m.common.Common, m.common.Keys.Approval, req, 1, 1, approval.Options{Grace: DefaultKeyGrace}).SetSize(80, 18)
		}
	})
	b.Run("view", func(b *testing.B) {
		a := approval.New(m.common.Common, m.common.Keys.Approval, req, 1, 1, approval.Options{Grace: DefaultKeyGrace}).SetSize(80, 18)
		b.ReportAllocs()
		for b.Loop() {
			_ = a.View()
		}
	})
}

// argumentsLabel is the pane's label above the arguments.
const argumentsLabel = "arguments (JSON; keys in the model's order)"
