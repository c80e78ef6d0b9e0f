package mcpclient

import (
	"context"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// TestStructuredSingleMemberCopy (SPEC E3; issue 24 item 5): a structured
// copy whose one member is the text (server-filesystem's read_text_file:
// text X and {"content": X}) or the text's JSON (server-memory: an array,
// and {"entities": that array}) is dropped: the model reads the file once,
// whole, not a 40 KB message cut at the budget.
func TestStructuredSingleMemberCopy(t *testing.T) {
	_, m, cfg := peerTools(t, mcptest.Options{})
	res, err := m.Call(context.Background(), cfg.ID, "read_text_file", []byte(`{"bytes":20000}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) != 20000 || strings.Contains(res.Text, "structured content") || res.Truncated {
		t.Errorf("read_text_file: %d bytes (truncated %v), structured copy %v; want the 20,000-byte file once",
			len(res.Text), res.Truncated, strings.Contains(res.Text, "structured content"))
	}
	res, err = m.Call(context.Background(), cfg.ID, "read_graph", nil, CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Text, "structured content") || strings.Count(res.Text, "nothing approves itself") != 1 {
		t.Errorf("read_graph: %q, want the graph once", res.Text)
	}
}

// TestDuplicatesText: which structured copies repeat a text part.
func TestDuplicatesText(t *testing.T) {
	for _, tt := range []struct {
		name       string
		texts      []string
		structured string
		want       bool
	}{
		{"the same JSON", []string{`{"a": 1}`}, `{"a":1}`, true},
		{"one member, the text", []string{"hello\nworld"}, `{"content":"hello\nworld"}`, true},
		{"one member, the text's JSON", []string{` [1, {"b": 2}] `}, `{"entities":[1,{"b":2}]}`, true},
		{"one member, other text", []string{"hello"}, `{"content":"hellO"}`, false},
		{"two members, one the text", []string{"hello"}, `{"content":"hello","size":5}`, false},
		{"one member, a number not the text", []string{"5"}, `{"n":6}`, false},
		{"not JSON", []string{"x"}, `{"content":`, false},
		{"no text", nil, `{"content":""}`, false},
	} {
		if got := duplicatesText(tt.texts, []byte(tt.structured)); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
