package agent

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"vouch/agent/agenttest"
	"vouch/tool"
)

func utf8Valid(s string) bool { return utf8.ValidString(s) }

func TestRunCancelDuringStream(t *testing.T) {
	gate := make(chan struct{}) // never opened: the model stalls after "Hel"
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.Text("Hel"), agenttest.Wait(gate), agenttest.Text("lo")}},
	}})
	t.Cleanup(srv.Close)
	tr := NewMemoryTranscript()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := startRun(ctx, NewClient(srv.URL(), "", nil), RunSpec{Transcript: tr, History: []Message{{Role: RoleUser, Content: "hi"}}})
	for ev := range ch {
		if d, ok := ev.(TextDelta); ok && d.Text == "Hel" {
			break
		}
	}
	// While the stream is open the draft is already stored, marked partial.
	msgs, _ := tr.Messages(context.Background())
	if len(msgs) != 1 || !msgs[0].Partial || msgs[0].Content != "Hel" {
		t.Fatalf("mid-stream transcript: got %+v, want one partial message \"Hel\"", msgs)
	}
	cancel()
	_, done := collect(t, ch)
	if done.Reason != StopCancelled || done.Err != nil {
		t.Fatalf("got Done{%s, %v}, want cancelled without error", done.Reason, done.Err)
	}
	msgs, _ = tr.Messages(context.Background())
	if len(msgs) != 1 || !msgs[0].Partial || msgs[0].Content != "Hel" || msgs[0].Created.IsZero() {
		t.Errorf("got transcript %+v, want the partial text kept, marked partial", msgs)
	}
	if len(done.Messages) != 1 || !done.Messages[0].Partial {
		t.Errorf("got Done.Messages %+v, want the partial message", done.Messages)
	}
}

func TestRunCancelDuringToolCall(t *testing.T) {
	tests := []struct {
		name       string
		honoursCtx bool
	}{
		{"tool honours ctx", true},
		{"tool ignores ctx", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{})
			release := make(chan struct{})
			defer close(release)
			slow := funcTool{
				def: tool.Def{Identity: "builtin:slow"},
				fn: func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
					close(started)
					if tt.honoursCtx {
						<-ctx.Done()
						return tool.Result{}, ctx.Err()
					}
					<-release
					return tool.Result{Text: "too late"}, nil
				},
			}
			srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
				{Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "slow", `{}`), agenttest.ToolCall(1, "c2", "slow", `{}`)}},
			}})
			t.Cleanup(srv.Close)
			tr := NewMemoryTranscript()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ch := startRun(ctx, NewClient(srv.URL(), "", nil), RunSpec{Transcript: tr, Tools: []tool.Tool{slow},
				History: []Message{{Role: RoleUser, Content: "go"}}})
			go func() {
				<-started
				cancel()
			}()
			_, done := collect(t, ch)
			if done.Reason != StopCancelled {
				t.Fatalf("got Done{%s, %v}, want cancelled", done.Reason, done.Err)
			}
			msgs, _ := tr.Messages(context.Background())
			if len(msgs) != 3 {
				t.Fatalf("got %d messages %+v, want the assistant call and two tool results", len(msgs), msgs)
			}
			if msgs[0].Partial || len(msgs[0].ToolCalls) != 2 {
				t.Errorf("got assistant %+v, want complete with two calls", msgs[0])
			}
			for i, m := range msgs[1:] {
				if m.Role != RoleTool || !m.IsError || m.Content != cancelledCall || m.ToolCallID != msgs[0].ToolCalls[i].CorrelationID {
					t.Errorf("result %d: got %+v, want a cancelled error result for call %d", i, m, i)
				}
			}
		})
	}
}

func TestRunCancelledBeforeStart(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("never")}})
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ch := make(chan Event, 1) // room for Done: a cancelled run still offers it
	msgs := NewClient(srv.URL(), "", nil).Run(ctx, RunSpec{Model: "m", History: []Message{{Role: RoleUser, Content: "x"}}}, ch)
	done, ok := (<-ch).(Done)
	if !ok || done.Reason != StopCancelled || len(msgs) != 0 {
		t.Fatalf("got %+v and %d messages, want Done{cancelled} and nothing appended", done, len(msgs))
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("got %d requests, want none", n)
	}
}
