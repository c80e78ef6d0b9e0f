package tui

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/errline"
)

// errNoServerText is internal/app's sentence when no model server answered.
var errNoServerText = errors.New("no model server answered at http://127.0.0.1:8080/v1, http://127.0.0.1:1234/v1, " +
	"http://127.0.0.1:11434/v1, http://127.0.0.1:8000/v1; start llama-server, LM Studio, Ollama or vLLM, or pass --model-url")

// errBudgetText is the agent's refusal of a message whose tools do not fit.
var errBudgetText = errors.New("the tools that must be sent in full need 41,250 tokens but the tool budget is 8,192 tokens " +
	"(25% of the 32,768-token window): github › create_pull_request (1,204 tokens), github › create_issue (1,102 tokens), " +
	"github › update_issue (1,050 tokens), github › search_code (990 tokens), github › list_commits (870 tokens), " +
	"github › get_file_contents (860 tokens), 111 more (35,174 tokens); turn off some tools for this conversation in " +
	"Settings › Tools (ctrl+x), or raise the window")

// TestGoldenErrorLine (issue 18 item 4): the no-server error and the
// tool-budget refusal at 80x24 and 60x16 — what to do is always on screen;
// alt+e shows a long one whole.
func TestGoldenErrorLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		w, h   int
		send   error // Backend.Send fails
		done   error // the run fails
		expand bool
	}{
		{name: "no_server_80x24", w: 80, h: 24, send: errNoServerText},
		{name: "no_server_60x16", w: 60, h: 16, send: errNoServerText},
		{name: "budget_80x24", w: 80, h: 24, done: errBudgetText},
		{name: "budget_60x16", w: 60, h: 16, done: errBudgetText},
		{name: "budget_expanded_80x24", w: 80, h: 24, done: errBudgetText, expand: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newFakeBackend()
			b.sendErr = tc.send
			m := startModel(t, b, Options{})
			m, _ = update(m, tea.WindowSizeMsg{Width: tc.w, Height: tc.h})
			m, wait := sendText(t, m, "Open a pull request for the fix")
			if tc.done != nil {
				m, _ = deliver(t, m, b, wait, agent.RunStarted{}, agent.Done{Reason: agent.StopError, Err: tc.done})
			}
			if tc.expand {
				m = typeText(m, "") // the input holds the restored text; alt+e acts anyway
				m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'e'}, Alt: true})
			}
			view := ansi.Strip(m.View())
			flat := strings.Join(strings.Fields(view), " ")
			for _, want := range wantAdvice(tc.send, tc.done) {
				if !strings.Contains(flat, want) {
					t.Errorf("the screen lacks %q:\n%s", want, view)
				}
			}
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}

// wantAdvice is the part of each error that says what to do.
func wantAdvice(send, done error) []string {
	switch {
	case send != nil:
		return []string{"start llama-server, LM Studio, Ollama or vLLM, or pass --model-url."}
	default:
		return []string{"turn off some tools for this conversation in Settings › Tools (ctrl+x), or raise the window."}
	}
}

// TestErrorLineLengths: short errors show whole; at most four lines
// unless expanded; alt+e toggles, and only while there is more to show.
func TestErrorLineLengths(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m.status = statusState{err: "Short."}
	if got := m.errorLine().Lines(); len(got) != 1 || m.errorLine().Folded() {
		t.Fatalf("short error: %q (folded %v), want one line", got, m.errorLine().Folded())
	}
	m.syncKeys()
	if m.keys.ExpandError.Enabled() {
		t.Fatal("alt+e enabled for an error shown whole")
	}
	m.status = statusState{err: errBudgetText.Error()}
	m.syncKeys()
	lines := m.errorLine().Lines()
	if len(lines) != errline.MaxLines || !m.keys.ExpandError.Enabled() {
		t.Fatalf("long error: %d lines, alt+e enabled %v; want %d and enabled", len(lines), m.keys.ExpandError.Enabled(), errline.MaxLines)
	}
	if !strings.Contains(ansi.Strip(strings.Join(lines, " ")), "alt+e shows all") {
		t.Fatalf("folded error does not name its key: %q", lines)
	}
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'e'}, Alt: true})
	if got := m.errorLine().Lines(); len(got) <= errline.MaxLines {
		t.Fatalf("expanded error: %d lines, want more than %d", len(got), errline.MaxLines)
	}
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'e'}, Alt: true})
	if got := m.errorLine().Lines(); len(got) != errline.MaxLines {
		t.Fatalf("folded again: %d lines", len(got))
	}
	if m.input.Value() != "" {
		t.Fatalf("alt+e typed into the input: %q", m.input.Value())
	}
}
