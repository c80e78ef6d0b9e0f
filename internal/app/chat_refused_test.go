package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
)

// askingTool is a tool whose every call asks the person, so it must stay
// inline (SPEC F3); its long description makes a few of them overflow the
// tool budget.
type askingTool struct{ name string }

func (a askingTool) Def() tool.Def {
	return tool.Def{Identity: "mcp:big:" + a.name, Description: strings.Repeat("Writes things carefully. ", 60),
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
}

func (askingTool) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Result{Text: "done"}, nil
}

// TestRefusedMessageNotResent is issue 17 item 8 (SPEC F3, A6): a message
// refused before inference (here: the tools that must stay inline exceed
// the budget) stays stored and in history, but is not part of the next
// request: the next message goes out alone, never two of the person's
// messages in a row.
func TestRefusedMessageNotResent(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Fine.")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(4096))
	defer srv.Close()
	state := t.TempDir()
	s := openTestSession(t, state)
	var big atomic.Bool // the person selects the big tools, then turns them off
	more := func() []tool.Tool {
		if !big.Load() {
			return nil
		}
		var ts []tool.Tool
		for i := range 8 {
			ts = append(ts, askingTool{name: fmt.Sprintf("write%d", i)})
		}
		return ts
	}
	ask := func() func(policy.Call) policy.Decision {
		return func(policy.Call) policy.Decision {
			return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: "asks"}
		}
	}
	b := NewChat(ChatConfig{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Model: "m",
		Limits: agent.DefaultLimits(), MoreTools: more, Decide: ask})
	send := func(text string) agent.Done {
		t.Helper()
		ch, err := b.Send(context.Background(), "m", text)
		if err != nil {
			t.Fatal(err)
		}
		_, done := drain(t, ch)
		return done
	}
	if done := send("first"); done.Err != nil {
		t.Fatalf("first: %v", done.Err)
	}
	big.Store(true)
	if done := send("refused one"); done.Err == nil {
		t.Fatalf("a message with tools over the budget was not refused: %+v", done)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d chat requests after the refusal, want 1: it must end before inference", n)
	}
	big.Store(false)
	if done := send("third"); done.Err != nil {
		t.Fatalf("the message after a refused one failed: %v", done.Err)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	var prev string
	for _, m := range last.Messages {
		if m.Role == "user" && prev == "user" {
			t.Errorf("two user messages in a row went out: %+v", last.Messages)
		}
		if strings.Contains(m.Content, "refused one") {
			t.Errorf("the refused message went out with the next one")
		}
		prev = m.Role
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	msgs := storedMessages(t, state)
	if len(msgs) != 5 || msgs[2].Content != "refused one" || msgs[3].Content != "third" {
		t.Fatalf("stored conversation: %+v, want first, answer, the refused one, third, answer", msgs)
	}
}
