package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// drain reads a Send channel until it is closed and returns its events.
func drain(t *testing.T, ch <-chan Event) []Event {
	t.Helper()
	var evs []Event
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range ch {
			evs = append(evs, ev)
		}
	}()
	<-done
	if len(evs) == 0 {
		t.Fatal("got no events, want at least Done")
	}
	if _, ok := evs[len(evs)-1].(Done); !ok {
		t.Fatalf("got last event %T, want Done before the channel closed", evs[len(evs)-1])
	}
	return evs
}

func TestChatSend(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("Hi there.")}})
	t.Cleanup(srv.Close)
	tr := NewMemoryTranscript()
	chat := NewChat(ChatConfig{Client: NewClient(srv.URL(), "", nil), Transcript: tr, Now: fixedNow, SystemPrompt: "sys"})

	ch, err := chat.Send(context.Background(), "demo-model", "hello")
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, ch)
	if done := evs[len(evs)-1].(Done); done.Reason != StopDone {
		t.Fatalf("got Done{%s, %v}, want done", done.Reason, done.Err)
	}
	hist, err := chat.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Role != RoleUser || hist[0].Content != "hello" || hist[1].Content != "Hi there." {
		t.Errorf("got history %+v, want the user message and the answer", hist)
	}
}

func TestChatSendErrors(t *testing.T) {
	gate := make(chan struct{})
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.Wait(gate), agenttest.Text("done")}},
	}})
	t.Cleanup(srv.Close)
	chat := NewChat(ChatConfig{Client: NewClient(srv.URL(), "", nil), Transcript: NewMemoryTranscript()})

	if _, err := chat.Send(context.Background(), "m", "  \n"); !errors.Is(err, ErrEmptyMessage) {
		t.Errorf("blank text: got %v, want ErrEmptyMessage", err)
	}
	ch, err := chat.Send(context.Background(), "m", "first")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chat.Send(context.Background(), "m", "second"); !errors.Is(err, ErrBusy) {
		t.Errorf("second send while running: got %v, want ErrBusy", err)
	}
	close(gate)
	drain(t, ch)
	hist, _ := chat.History(context.Background())
	if len(hist) != 2 {
		t.Errorf("got %d messages, want 2: the refused message is not stored", len(hist))
	}
}

func TestChatPartialSentBackMarked(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}})
	t.Cleanup(srv.Close)
	tr := NewMemoryTranscript(
		Message{Role: RoleUser, Content: "write a poem"},
		Message{Role: RoleAssistant, Content: "Roses are", Partial: true,
			ToolCalls: []ToolCall{{ID: "x", CorrelationID: "corr", WireName: "fs_read", Arguments: "{"}}},
		Message{Role: RoleAssistant, Partial: true}, // cancelled before any text
	)
	chat := NewChat(ChatConfig{Client: NewClient(srv.URL(), "", nil), Transcript: tr})
	ch, err := chat.Send(context.Background(), "m", "go on")
	if err != nil {
		t.Fatal(err)
	}
	drain(t, ch)
	msgs := srv.Requests()[0].Messages
	want := []agenttest.Message{
		{Role: "user", Content: "write a poem"},
		{Role: "assistant", Content: "Roses are" + InterruptedNote},
		{Role: "user", Content: "go on"},
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %d request messages %+v, want %d", len(msgs), msgs, len(want))
	}
	for i := range want {
		if msgs[i].Role != want[i].Role || msgs[i].Content != want[i].Content || len(msgs[i].ToolCalls) != 0 {
			t.Errorf("message %d: got %+v, want %+v", i, msgs[i], want[i])
		}
	}
}

func TestChatContextWindow(t *testing.T) {
	tests := []struct {
		name       string
		flavor     agenttest.Flavor
		profile    int
		wantWindow int
		wantSource string
	}{
		{"server reports it", agenttest.LlamaCpp, 9000, 6000, WindowFromLlamaCppProps},
		{"profile when the server does not", agenttest.Plain, 9000, 9000, WindowFromProfile},
		{"default otherwise", agenttest.Plain, 0, DefaultContextWindow, WindowFromDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}},
				agenttest.WithFlavor(tt.flavor), agenttest.WithContextWindow(6000))
			t.Cleanup(srv.Close)
			chat := NewChat(ChatConfig{Client: NewClient(srv.URL(), "", nil), Transcript: NewMemoryTranscript(),
				ProfileContextWindow: tt.profile})
			ch, err := chat.Send(context.Background(), "demo-model", "hi")
			if err != nil {
				t.Fatal(err)
			}
			started := eventsOf[RunStarted](drain(t, ch))
			if len(started) != 1 || started[0].ContextWindow != tt.wantWindow || started[0].WindowSource != tt.wantSource {
				t.Errorf("got %+v, want window %d from %q", started, tt.wantWindow, tt.wantSource)
			}
		})
	}
}

func TestChatServerDown(t *testing.T) {
	tr := NewMemoryTranscript()
	chat := NewChat(ChatConfig{Client: NewClient(closedURL(t), "", nil), Transcript: tr})
	ch, err := chat.Send(context.Background(), "m", "hello")
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, ch)
	done := evs[len(evs)-1].(Done)
	if done.Reason != StopError || !errors.Is(done.Err, ErrUnreachable) {
		t.Errorf("got Done{%s, %v}, want StopError wrapping ErrUnreachable", done.Reason, done.Err)
	}
	msgs, _ := tr.Messages(context.Background())
	if len(msgs) != 1 || msgs[0].Content != "hello" {
		t.Errorf("got transcript %+v, want the user message kept", msgs)
	}
}

func TestMemoryTranscriptDraft(t *testing.T) {
	ctx := context.Background()
	tr := NewMemoryTranscript()
	d, err := tr.Begin(ctx, RoleAssistant)
	if err != nil {
		t.Fatal(err)
	}
	d.Write("a")
	d.Write("b")
	got, _ := tr.Messages(ctx)
	if len(got) != 1 || got[0].Content != "ab" || !got[0].Partial {
		t.Fatalf("got %+v, want one partial message \"ab\" while streaming", got)
	}
	if err := d.Finish(ctx, Message{Role: RoleAssistant, Content: "abc"}); err != nil {
		t.Fatal(err)
	}
	d.Write("ignored")
	if err := d.Finish(ctx, Message{}); !errors.Is(err, ErrDraftFinished) {
		t.Errorf("second Finish: got %v, want ErrDraftFinished", err)
	}
	got, _ = tr.Messages(ctx)
	if len(got) != 1 || got[0].Content != "abc" || got[0].Partial {
		t.Errorf("got %+v, want the finished message", got)
	}
	if strings.Contains(got[0].Content, "ignored") {
		t.Error("a write after Finish changed the message")
	}
}

// failingTranscript accepts the person's message and refuses everything
// after it.
type failingTranscript struct{ *MemoryTranscript }

func (f failingTranscript) Begin(context.Context, Role) (Draft, error) {
	return nil, errors.New("disk full")
}

func TestRunPersistFailure(t *testing.T) {
	tr := failingTranscript{NewMemoryTranscript()}
	_, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("hello")}}, RunSpec{Transcript: tr})
	if done.Reason != StopError || !errors.Is(done.Err, ErrPersist) ||
		!strings.HasPrefix(done.Err.Error(), "vouch could not save the conversation (disk full); check free disk space") {
		t.Errorf("got Done{%s, %v}, want StopError wrapping ErrPersist that names the cause", done.Reason, done.Err)
	}
}
