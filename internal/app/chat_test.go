package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
)

// drain collects a run's events until the channel closes and returns the
// streamed text and the Done event.
func drain(t *testing.T, ch <-chan agent.Event) (string, agent.Done) {
	t.Helper()
	var text strings.Builder
	var done agent.Done
	seen := false
	for ev := range ch {
		switch ev := ev.(type) {
		case agent.TextDelta:
			text.WriteString(ev.Text)
		case agent.Done:
			done, seen = ev, true
		}
	}
	if !seen {
		t.Fatal("the run ended without a Done event")
	}
	return text.String(), done
}

// openTestSession opens a session on a fresh state dir; the test closes it.
func openTestSession(t *testing.T, state string) *App {
	t.Helper()
	s, err := Open(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// transcriptOf is the transcript of s's current conversation.
func transcriptOf(s *App) agent.Transcript {
	_, t := s.Current()
	return t
}

func storedMessages(t *testing.T, state string) []agent.Message {
	t.Helper()
	s := openTestSession(t, state)
	defer func() { _ = s.Close() }()
	msgs, err := transcriptOf(s).Messages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// TestBackendStreamsAndPersists runs a real turn through the backend, the
// agent and the bbolt transcript, and reopens the database to find it whole
// (SPEC A2, K1, K3).
func TestChatStreamsAndPersists(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("Streamed **answer** from the scripted model.")}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m1"), agenttest.WithContextWindow(8192))
	defer srv.Close()
	state := t.TempDir()
	s := openTestSession(t, state)
	b := NewChat(ChatConfig{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Tools: s.Workspace().Tools(), Limits: agent.DefaultLimits()})

	info, err := b.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.ServerKind != "llama.cpp" || info.Model != "m1" || info.ContextWindow != 8192 {
		t.Fatalf("Info: got %+v, want llama.cpp, m1, 8192", info)
	}
	ch, err := b.Send(context.Background(), "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	text, done := drain(t, ch)
	if done.Reason != agent.StopDone || done.Err != nil {
		t.Fatalf("Done: got %+v, want a clean finish", done)
	}
	if text != "Streamed **answer** from the scripted model." {
		t.Fatalf("streamed text: got %q", text)
	}
	if m, ok, err := s.DB().Setting(SettingModel); err != nil || !ok || m != "m1" {
		t.Errorf("remembered model: got %q, %v, %v; want m1", m, ok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	msgs := storedMessages(t, state)
	if len(msgs) != 2 {
		t.Fatalf("stored messages: got %d, want 2: %+v", len(msgs), msgs)
	}
	if msgs[0].Role != agent.RoleUser || msgs[0].Content != "hello" || msgs[0].Partial {
		t.Errorf("stored user message: got %+v", msgs[0])
	}
	if msgs[1].Role != agent.RoleAssistant || msgs[1].Content != text || msgs[1].Partial {
		t.Errorf("stored answer: got %+v, want the complete streamed text", msgs[1])
	}
}

// TestBackendProbesLocalServers finds the model server by probing when no
// URL is configured, and says what to do when none answers (SPEC A1).
func TestChatProbesLocalServers(t *testing.T) {
	srv := agenttest.New(agenttest.Script{}, agenttest.WithFlavor(agenttest.Ollama), agenttest.WithModels("llama3"))
	defer srv.Close()
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()

	b := NewChat(ChatConfig{Transcript: transcriptOf(s), Candidates: []string{"http://127.0.0.1:9/v1", srv.URL()}})
	info, err := b.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.ServerURL != srv.URL() || info.ServerKind != "Ollama" {
		t.Errorf("Info: got %+v, want the Ollama server at %s", info, srv.URL())
	}

	none := NewChat(ChatConfig{Transcript: transcriptOf(s), Candidates: []string{"http://127.0.0.1:9/v1"}})
	_, err = none.Send(context.Background(), "m", "hi")
	if !errors.Is(err, ErrNoServer) || !strings.Contains(err.Error(), "--model-url") {
		t.Errorf("Send with no server: got %v, want errNoServer saying to pass --model-url", err)
	}
}

// TestBackendFailuresKeepConversation: a server that is down, fails mid
// answer, or is cancelled mid-stream ends the turn with one sentence, and
// everything before it is still stored; a cut-off answer is stored partial,
// never complete (SPEC A2, A5, K3).
func TestChatFailuresKeepConversation(t *testing.T) {
	gate := make(chan struct{})
	tests := []struct {
		name       string
		turn       agenttest.Turn
		url        string // overrides the scripted server
		cancel     bool
		wantReason agent.StopReason
		wantErr    string
	}{
		{name: "server down", url: "http://127.0.0.1:9/v1", wantReason: agent.StopError, wantErr: "refused"},
		{name: "error mid-answer", turn: agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("Half an ans"), agenttest.ErrorEvent("out of memory")}}, wantReason: agent.StopError, wantErr: "out of memory"},
		{name: "dropped connection", turn: agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("Half an ans"), agenttest.Drop()}}, wantReason: agent.StopError},
		{name: "garbage", turn: agenttest.NotSSE(), wantReason: agent.StopError},
		{name: "cancelled", turn: agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("Half an ans"), agenttest.Wait(gate)}}, cancel: true, wantReason: agent.StopCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("First answer."), tc.turn}}, agenttest.WithModels("m"))
			defer srv.Close()
			state := t.TempDir()
			s := openTestSession(t, state)
			b := NewChat(ChatConfig{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
			ch, err := b.Send(context.Background(), "m", "first")
			if err != nil {
				t.Fatal(err)
			}
			if _, done := drain(t, ch); done.Err != nil {
				t.Fatalf("first turn: %v", done.Err)
			}
			if tc.url != "" {
				b.client = agent.NewClient(tc.url, "", nil)
				b.chat = agent.NewChat(agent.ChatConfig{Client: b.client, Transcript: transcriptOf(s), Limits: agent.DefaultLimits()})
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ch, err = b.Send(ctx, "m", "second")
			if err != nil {
				t.Fatal(err)
			}
			var done agent.Done
			for ev := range ch {
				if d, ok := ev.(agent.Done); ok {
					done = d
				}
				if td, ok := ev.(agent.TextDelta); ok && tc.cancel && strings.Contains(td.Text, "ans") {
					cancel()
				}
			}
			if done.Reason != tc.wantReason {
				t.Fatalf("Done reason: got %q (%v), want %q", done.Reason, done.Err, tc.wantReason)
			}
			if tc.wantReason == agent.StopError {
				if done.Err == nil || !strings.Contains(done.Err.Error(), tc.wantErr) {
					t.Fatalf("Done error: got %v, want a sentence containing %q", done.Err, tc.wantErr)
				}
				if strings.Contains(strings.TrimSuffix(done.Err.Error(), "."), ". ") {
					t.Errorf("Done error is more than one sentence: %q", done.Err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			msgs := storedMessages(t, state)
			if len(msgs) < 3 || msgs[0].Content != "first" || msgs[1].Content != "First answer." || msgs[2].Content != "second" {
				t.Fatalf("the conversation so far was not kept: %+v", msgs)
			}
			for _, m := range msgs[3:] {
				if m.Role == agent.RoleAssistant && strings.HasPrefix(m.Content, "Half an ans") && !m.Partial {
					t.Errorf("a cut-off answer was stored as complete: %+v", m)
				}
			}
		})
	}
	close(gate)
}

// TestBackendNewConversation: a new conversation starts empty, the old one
// stays stored, and the next turn goes to the new one.
func TestChatNewConversation(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Fine.")}}}, agenttest.WithModels("m"))
	defer srv.Close()
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = srv.URL(), "m"
	b := NewChat(cfg)
	oldConv, _ := s.Current()
	for _, text := range []string{"first", "second"} {
		ch, err := b.Send(context.Background(), "m", text)
		if err != nil {
			t.Fatal(err)
		}
		if _, done := drain(t, ch); done.Err != nil {
			t.Fatal(done.Err)
		}
		if text == "first" {
			if err := b.NewConversation(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	newConv, _ := s.Current()
	if newConv == oldConv {
		t.Fatal("the conversation did not change")
	}
	hist, err := b.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Content != "second" {
		t.Fatalf("new conversation: got %+v, want only the second exchange", hist)
	}
	old, err := s.DB().LastMessages(oldConv, 10)
	if err != nil || len(old) != 2 || old[0].Content != "first" {
		t.Fatalf("old conversation: got %+v, %v; want the first exchange kept", old, err)
	}
}
