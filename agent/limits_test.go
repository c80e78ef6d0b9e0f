package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// bigTool returns n bytes of text.
func bigTool(name string, n int) tool.Tool {
	return funcTool{
		def: tool.Def{Identity: "builtin:" + name},
		fn: func(context.Context, json.RawMessage) (tool.Result, error) {
			return tool.Result{Text: strings.Repeat("é", n/2)}, nil
		},
	}
}

func TestRunLimits(t *testing.T) {
	callEcho := agenttest.Turn{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c", "echo", `{}`)}}
	twoCalls := agenttest.Turn{Steps: []agenttest.Step{
		agenttest.ToolCall(0, "a", "big", `{}`), agenttest.ToolCall(1, "b", "big", `{}`),
	}}
	tests := []struct {
		name         string
		turns        []agenttest.Turn
		tools        []tool.Tool
		limits       Limits
		wantReason   StopReason
		wantErr      string
		wantRequests int
		wantResults  []string // prefixes of the tool results in the transcript
	}{
		{
			name:         "model turns",
			turns:        []agenttest.Turn{callEcho},
			tools:        []tool.Tool{echoTool("echo", nil)},
			limits:       Limits{MaxTurns: 2},
			wantReason:   StopLimit,
			wantErr:      "the run reached its limit of 2 model turns; send a follow-up message to let it continue",
			wantRequests: 2,
			wantResults:  []string{"echo:", "echo:"},
		},
		{
			name:         "tool calls",
			turns:        []agenttest.Turn{{Steps: []agenttest.Step{agenttest.ToolCall(0, "a", "echo", `{}`), agenttest.ToolCall(1, "b", "echo", `{}`)}}},
			tools:        []tool.Tool{echoTool("echo", nil)},
			limits:       Limits{MaxToolCalls: 1},
			wantReason:   StopLimit,
			wantErr:      "the run reached its limit of 1 tool calls; send a follow-up message to let it continue",
			wantRequests: 1,
			wantResults:  []string{"echo:", notRunLimit},
		},
		{
			name:         "per-call bytes truncate and continue",
			turns:        []agenttest.Turn{{Steps: []agenttest.Step{agenttest.ToolCall(0, "a", "big", `{}`)}}, agenttest.Reply("ok")},
			tools:        []tool.Tool{bigTool("big", 1000)},
			limits:       Limits{MaxResultBytesPerCall: 200},
			wantReason:   StopDone,
			wantRequests: 2,
			wantResults:  []string{"éé"},
		},
		{
			name:         "per-run bytes",
			turns:        []agenttest.Turn{twoCalls},
			tools:        []tool.Tool{bigTool("big", 1000)},
			limits:       Limits{MaxResultBytesPerCall: 200, MaxResultBytesPerRun: 300},
			wantReason:   StopLimit,
			wantErr:      "tool results reached the run's budget of 300 bytes; ask for something narrower in a follow-up message",
			wantRequests: 1,
			wantResults:  []string{"éé", "éé"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := NewMemoryTranscript()
			srv, _, done := runScript(t, agenttest.Script{Turns: tt.turns}, RunSpec{Transcript: tr, Tools: tt.tools, Limits: tt.limits})
			if done.Reason != tt.wantReason {
				t.Fatalf("got Done{%s, %v}, want %s", done.Reason, done.Err, tt.wantReason)
			}
			if tt.wantErr != "" && (done.Err == nil || done.Err.Error() != tt.wantErr || !errors.Is(done.Err, ErrLimit)) {
				t.Errorf("got error %v, want ErrLimit %q", done.Err, tt.wantErr)
			}
			if n := len(srv.Requests()); n != tt.wantRequests {
				t.Errorf("got %d requests, want %d", n, tt.wantRequests)
			}
			msgs, _ := tr.Messages(context.Background())
			var results []Message
			for _, m := range msgs {
				if m.Role == RoleTool {
					results = append(results, m)
				}
			}
			if len(results) != len(tt.wantResults) {
				t.Fatalf("got %d tool results, want %d: %+v", len(results), len(tt.wantResults), results)
			}
			limits := tt.limits.withDefaults()
			total := 0
			for i, r := range results {
				if !strings.HasPrefix(r.Content, tt.wantResults[i]) {
					t.Errorf("result %d: got %.40q…, want prefix %q", i, r.Content, tt.wantResults[i])
				}
				if len(r.Content) > limits.MaxResultBytesPerCall {
					t.Errorf("result %d: got %d bytes, want at most %d", i, len(r.Content), limits.MaxResultBytesPerCall)
				}
				if strings.HasPrefix(r.Content, "éé") && !strings.Contains(r.Content, "[… truncated by vouch: the result was 1000 bytes") {
					t.Errorf("result %d: got %q, want a visible truncation marker", i, r.Content)
				}
				if strings.HasPrefix(r.Content, "éé") {
					total += len(r.Content)
				}
			}
			if total > limits.MaxResultBytesPerRun {
				t.Errorf("got %d result bytes in the run, want at most %d", total, limits.MaxResultBytesPerRun)
			}
		})
	}
}

func TestTruncateResult(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		limit int
		cut   bool
	}{
		{"fits", "short", 100, false},
		{"ascii", strings.Repeat("a", 500), 120, true},
		{"multibyte boundary", strings.Repeat("€", 200), 121, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := truncateResult(tt.in, tt.limit)
			if cut != tt.cut {
				t.Fatalf("got cut=%v, want %v", cut, tt.cut)
			}
			if !cut {
				if got != tt.in {
					t.Errorf("got %q, want unchanged", got)
				}
				return
			}
			if len(got) > tt.limit {
				t.Errorf("got %d bytes, want at most %d", len(got), tt.limit)
			}
			if !strings.Contains(got, "truncated by vouch") || !strings.ContainsRune(got, '\n') {
				t.Errorf("got %q, want a visible marker", got)
			}
			if strings.ContainsRune(got, '\uFFFD') || !utf8Valid(got) {
				t.Errorf("got %q, want valid UTF-8", got)
			}
		})
	}
}
