package agent

import (
	"regexp"
	"testing"
)

func TestPromptMessages(t *testing.T) {
	call := func(id, corr string) ToolCall {
		return ToolCall{ID: id, CorrelationID: corr, WireName: "fs_read", Arguments: `{"path":"a"}`}
	}
	type wantMsg struct {
		role, content, toolCallID string
		callIDs                   []string
	}
	tests := []struct {
		name    string
		history []Message
		want    []wantMsg
	}{
		{
			name: "call and result linked by correlation id, model id on the wire",
			history: []Message{
				{Role: RoleAssistant, ToolCalls: []ToolCall{call("call_1", "c1")}},
				{Role: RoleTool, Content: "data", ToolCallID: "c1"},
			},
			want: []wantMsg{{role: "assistant", callIDs: []string{"call_1"}}, {role: "tool", content: "data", toolCallID: "call_1"}},
		},
		{
			name: "missing result is filled, orphan result dropped",
			history: []Message{
				{Role: RoleAssistant, ToolCalls: []ToolCall{call("call_1", "c1")}},
				{Role: RoleTool, Content: "stray", ToolCallID: "nobody"},
				{Role: RoleUser, Content: "next"},
			},
			want: []wantMsg{
				{role: "assistant", callIDs: []string{"call_1"}},
				{role: "tool", content: "Error: " + missingResult, toolCallID: "call_1"},
				{role: "user", content: "next"},
			},
		},
		{
			name: "error results are marked, empty results say so",
			history: []Message{
				{Role: RoleAssistant, ToolCalls: []ToolCall{call("a", "c1"), call("b", "c2")}},
				{Role: RoleTool, Content: "boom", ToolCallID: "c1", IsError: true},
				{Role: RoleTool, ToolCallID: "c2"},
			},
			want: []wantMsg{
				{role: "assistant", callIDs: []string{"a", "b"}},
				{role: "tool", content: "Error: boom", toolCallID: "a"},
				{role: "tool", content: "(no output)", toolCallID: "b"},
			},
		},
		{
			name: "partial assistant text is marked and its calls dropped; empty partials and empty answers skipped",
			history: []Message{
				{Role: RoleAssistant, Content: "half", Partial: true, ToolCalls: []ToolCall{call("x", "c1")}},
				{Role: RoleAssistant, Partial: true},
				{Role: RoleAssistant},
			},
			want: []wantMsg{{role: "assistant", content: "half" + InterruptedNote}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := promptMessages("", tt.history)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d messages %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Role != w.role || g.Content != w.content || g.ToolCallID != w.toolCallID || len(g.ToolCalls) != len(w.callIDs) {
					t.Errorf("message %d: got %+v, want %+v", i, g, w)
					continue
				}
				for j, id := range w.callIDs {
					if g.ToolCalls[j].ID != id {
						t.Errorf("message %d call %d: got id %q, want %q", i, j, g.ToolCalls[j].ID, id)
					}
				}
			}
		})
	}
}

func TestPromptMessagesCallIDs(t *testing.T) {
	// Ollama-style empty and repeated ids get unique 9-character ids.
	history := []Message{
		{Role: RoleAssistant, ToolCalls: []ToolCall{
			{ID: "", CorrelationID: "c1", WireName: "t"},
			{ID: "dup", CorrelationID: "c2", WireName: "t"},
			{ID: "dup", CorrelationID: "c3", WireName: "t"},
		}},
		{Role: RoleTool, Content: "1", ToolCallID: "c1"},
		{Role: RoleTool, Content: "2", ToolCallID: "c2"},
		{Role: RoleTool, Content: "3", ToolCallID: "c3"},
	}
	got := promptMessages("", history)
	if len(got) != 4 {
		t.Fatalf("got %d messages, want 4", len(got))
	}
	short := regexp.MustCompile(`^[A-Za-z0-9]{9}$`)
	seen := map[string]bool{}
	for i, tc := range got[0].ToolCalls {
		if seen[tc.ID] {
			t.Errorf("call %d: id %q repeats", i, tc.ID)
		}
		seen[tc.ID] = true
		if tc.ID != "dup" && !short.MatchString(tc.ID) {
			t.Errorf("call %d: got id %q, want 9 alphanumerics", i, tc.ID)
		}
		if got[i+1].ToolCallID != tc.ID || got[i+1].Content != string(rune('1'+i)) {
			t.Errorf("result %d: got %+v, want it linked to %q", i, got[i+1], tc.ID)
		}
	}
}

func TestHistoryArguments(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "{}"},
		{` {"a":1} `, `{"a":1}`},
		{`{"a":`, `{"invalid_arguments":"{\"a\":"}`},
	}
	for _, tt := range tests {
		if got := historyArguments(tt.in); got != tt.want {
			t.Errorf("historyArguments(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
