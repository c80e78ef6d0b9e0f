package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

// TestModelChangeShowsNewBudget (issue 17 item 8): after ctrl+o picks
// another model, the status line shows that model's window and tool
// budget at once, not the figures of the model the last run used.
func TestModelChangeShowsNewBudget(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m.common.Width = 160 // room for every figure
	m, wait := sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait,
		agent.RunStarted{Model: "qwen2.5-7b", ContextWindow: 32768, Tools: agent.ToolPlanSummary{Inline: 5, Sent: 637, Budget: 8192, Fits: true}},
		agent.TextDelta{Text: "Hi."},
		agent.Usage{PromptTokens: 900, CompletionTokens: 3, ContextWindow: 32768},
		agent.Done{Reason: agent.StopDone})
	before := ansi.Strip(m.statusView())
	if !strings.Contains(before, "tools 637/8.2k") || !strings.Contains(before, "/33k") {
		t.Fatalf("status before the change = %q", before)
	}

	m = openPickerAt(t, m)
	clk.advance(DefaultKeyGrace * 2)
	m = typeText(m, "llama")
	m, _ = update(m, keyEnter)
	if m.model != "llama3.1-8b" {
		t.Fatalf("model = %q, want llama3.1-8b", m.model)
	}
	after := ansi.Strip(m.statusView())
	if !strings.Contains(after, "/8.2k") || strings.Contains(after, "33k") {
		t.Errorf("status after the change = %q, want the new model's 8,192-token window", after)
	}
	if !strings.Contains(after, "tools 637/2.0k") {
		t.Errorf("status after the change = %q, want the tool budget of the new window (a quarter of 8,192: 2.0k)", after)
	}
}

// TestModelChangeUnknownWindowDropsBudget: a model whose window is not
// known shows no tool budget until a run reports one, rather than the
// previous model's.
func TestModelChangeUnknownWindowDropsBudget(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m.common.Width = 160
	m, wait := sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait,
		agent.RunStarted{Model: "qwen2.5-7b", ContextWindow: 32768, Tools: agent.ToolPlanSummary{Inline: 5, Sent: 637, Budget: 8192, Fits: true}},
		agent.Done{Reason: agent.StopDone})
	m = openPickerAt(t, m)
	clk.advance(DefaultKeyGrace * 2)
	m = typeText(m, "mistral")
	m, _ = update(m, keyEnter)
	if after := ansi.Strip(m.statusView()); m.model != "mistral-small" || strings.Contains(after, "8.2k") || strings.Contains(after, "33k") {
		t.Errorf("model %q, status %q: want no figure of the previous model", m.model, after)
	}
}
