package demo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/internal/demo"
)

// send runs one message through chat and returns its events.
func send(t *testing.T, chat *agent.Chat, text string) ([]agent.Event, agent.Done) {
	t.Helper()
	ch, err := chat.Send(context.Background(), "demo-model", text)
	if err != nil {
		t.Fatal(err)
	}
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
	}
	done, ok := evs[len(evs)-1].(agent.Done)
	if !ok {
		t.Fatalf("got last event %T, want Done", evs[len(evs)-1])
	}
	return evs, done
}

func streamed(evs []agent.Event) (text string, deltas int) {
	var b strings.Builder
	for _, ev := range evs {
		if d, ok := ev.(agent.TextDelta); ok {
			b.WriteString(d.Text)
			deltas++
		}
	}
	return b.String(), deltas
}

func TestDemoScript(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"README.md", "main.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := agent.OpenWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	srv := agenttest.New(demo.Script(), agenttest.WithFlavor(agenttest.LlamaCpp))
	t.Cleanup(srv.Close)
	chat := agent.NewChat(agent.ChatConfig{
		Client:     agent.NewClient(srv.URL(), "", nil),
		Transcript: agent.NewMemoryTranscript(),
		Tools:      ws.Tools(),
	})

	t.Run("greets", func(t *testing.T) {
		evs, done := send(t, chat, "Hello!")
		text, deltas := streamed(evs)
		if done.Reason != agent.StopDone || !strings.Contains(text, "vouch demo model") || deltas < 10 {
			t.Errorf("got %s, %d deltas, %q; want a streamed greeting", done.Reason, deltas, text)
		}
	})
	t.Run("markdown answer with a code block", func(t *testing.T) {
		evs, done := send(t, chat, "How do I read a file line by line in Go?")
		text, _ := streamed(evs)
		if done.Reason != agent.StopDone || !strings.Contains(text, "```go\n") || !strings.Contains(text, "## ") {
			t.Errorf("got %s, %q; want Markdown with a Go code block", done.Reason, text)
		}
	})
	t.Run("one fs_list call, then an answer from its result", func(t *testing.T) {
		evs, done := send(t, chat, "What files are in my workspace?")
		if done.Reason != agent.StopDone {
			t.Fatalf("got Done{%s, %v}, want done", done.Reason, done.Err)
		}
		var calls []agent.ToolCallFinished
		for _, ev := range evs {
			if f, ok := ev.(agent.ToolCallFinished); ok {
				calls = append(calls, f)
			}
		}
		if len(calls) != 1 || calls[0].Call.Identity != agent.IdentityFSList || calls[0].IsError {
			t.Fatalf("got tool calls %+v, want one successful fs_list", calls)
		}
		text, _ := streamed(evs)
		for _, want := range []string{"`README.md`", "`main.go`", "2 entries"} {
			if !strings.Contains(text, want) {
				t.Errorf("got %q, want it to mention %s", text, want)
			}
		}
	})
}

func TestNoMatchingTurn(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("only once")}})
	t.Cleanup(srv.Close)
	chat := agent.NewChat(agent.ChatConfig{Client: agent.NewClient(srv.URL(), "", nil), Transcript: agent.NewMemoryTranscript()})
	if _, done := send(t, chat, "one"); done.Reason != agent.StopDone {
		t.Fatalf("first: got %s, want done", done.Reason)
	}
	_, done := send(t, chat, "two")
	if done.Reason != agent.StopError || !errors.Is(done.Err, agent.ErrServer) || !strings.Contains(done.Err.Error(), "no scripted turn matches") {
		t.Errorf("second: got Done{%s, %v}, want a server error naming the script", done.Reason, done.Err)
	}
	if got := srv.Requests(); len(got) != 2 || got[1].LastUser() != "two" {
		t.Errorf("got requests %+v, want both recorded", got)
	}
}

// TestDemoWritesInAPersonsWords (issue 28 item 22): the demo writes its
// note for the phrasings a person tries after reading the README — not only
// its exact phrase — and not for questions about files or notes.
func TestDemoWritesInAPersonsWords(t *testing.T) {
	ws, err := agent.OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	srv := agenttest.New(demo.Script(), agenttest.WithFlavor(agenttest.LlamaCpp))
	t.Cleanup(srv.Close)
	wrote := func(text string) bool {
		chat := agent.NewChat(agent.ChatConfig{Client: agent.NewClient(srv.URL(), "", nil),
			Transcript: agent.NewMemoryTranscript(), Tools: append(ws.Tools(), ws.WriteTools()...)})
		evs, _ := send(t, chat, text)
		for _, ev := range evs {
			if f, ok := ev.(agent.ToolCallFinished); ok && f.Call.Identity == agent.IdentityFSWrite {
				return true
			}
		}
		return false
	}
	for _, text := range []string{"write a note", "Add a line to the notes", "please jot down a todo",
		"Append this to my notes", "update the todo list", "remember to buy milk", "can you save a reminder?",
		"edit notes/todo.md", "Writing a note, please"} {
		if !wrote(text) {
			t.Errorf("%q wrote nothing", text)
		}
	}
	for _, text := range []string{"list the files in the workspace", "What is in my notes folder?", "hello", "How do I read a file in Go?"} {
		if wrote(text) {
			t.Errorf("%q wrote the note", text)
		}
	}
}
