package tui

import (
	"bytes"
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"vouch/agent"
)

// waitFor waits until the program has drawn s.
func waitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
		teatest.WithDuration(testTimeout))
}

// TestProgramSendAndQuit runs the real Bubble Tea loop: the first frame
// appears, a typed message is sent, the streamed answer is drawn, and
// ctrl+c on the empty input quits.
func TestProgramSendAndQuit(t *testing.T) {
	b := newFakeBackend()
	b.onSend = func(_ context.Context, events chan agent.Event) {
		events <- agent.TextDelta{Text: "Hello "}
		events <- agent.TextDelta{Text: "from the model."}
		events <- agent.Usage{PromptTokens: 20, CompletionTokens: 4}
		events <- agent.Done{Reason: agent.StopDone}
		close(events)
	}
	tm := teatest.NewTestModel(t, New(b, Options{Clipboard: &syncBuffer{}}), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "Type a message")
	tm.Type("hello there")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Hello from the model.")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})

	final := tm.FinalModel(t, teatest.WithFinalTimeout(testTimeout)).(Model)
	if got := b.lastSent(t).text; got != "hello there" {
		t.Errorf("sent %q, want %q", got, "hello there")
	}
	items := final.chat.Items
	if len(items) != 2 || items[0].Text != "hello there" || items[1].Text != "Hello from the model." || items[1].Streaming {
		t.Errorf("final transcript = %+v", items)
	}
}

// TestProgramCancel cancels a streaming answer with Esc in the real loop:
// the run's context is cancelled and the partial answer is marked.
func TestProgramCancel(t *testing.T) {
	b := newFakeBackend()
	b.onSend = func(ctx context.Context, events chan agent.Event) {
		events <- agent.TextDelta{Text: "Let me think about that"}
		<-ctx.Done()
		events <- agent.Done{Reason: agent.StopCancelled}
		close(events)
	}
	tm := teatest.NewTestModel(t, New(b, Options{Clipboard: &syncBuffer{}}), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "Type a message")
	tm.Type("a hard question")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Let me think about that")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "(interrupted)")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})

	final := tm.FinalModel(t, teatest.WithFinalTimeout(testTimeout)).(Model)
	if final.run.phase != phaseIdle {
		t.Errorf("run phase = %v, want idle", final.run.phase)
	}
	if it := final.chat.LastAnswer(); it == nil || !it.Interrupted {
		t.Errorf("last answer = %+v, want it marked interrupted", it)
	}
}
