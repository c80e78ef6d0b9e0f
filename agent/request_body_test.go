package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"vouch/agent/agenttest"
)

// TestRequestToolsEncodedOnce (issue 29 item 2): the chat request carries
// exactly the tools array the run encoded when it froze its tools (the
// text it counted), member for member what go-openai would have encoded.
func TestRequestToolsEncodedOnce(t *testing.T) {
	srv, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}}, RunSpec{Tools: bulkyTools(3, nil)})
	if done.Reason != StopDone {
		t.Fatalf("run ended %v: %v", done.Reason, done.Err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatalf("the request is not JSON: %v", err)
	}
	var sent []openai.Tool
	if err := json.Unmarshal(body["tools"], &sent); err != nil || len(sent) != 4 {
		t.Fatalf("the request's tools %s: %v, want 4", body["tools"], err)
	}
	want, err := json.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body["tools"], want) {
		t.Errorf("tools sent\n%s\nwant go-openai's encoding\n%s", body["tools"], want)
	}
	if body["model"] == nil || body["messages"] == nil || body["stream"] == nil {
		t.Errorf("the request lost members: %s", srv.Requests()[0].Body)
	}
}

// TestAddEncodedToolsBodies: the tools join an empty object and one with
// members; a body that is not an object is an error, never a panic.
func TestAddEncodedToolsBodies(t *testing.T) {
	ctx := withEncoded(context.Background(), `[{"type":"function"}]`, nil)
	for _, tt := range []struct{ in, want string }{
		{`{}`, `{"tools":[{"type":"function"}]}`},
		{`{ }`, `{ "tools":[{"type":"function"}]}`},
		{`{"model":"m"}` + "\n", `{"model":"m","tools":[{"type":"function"}]}` + "\n"},
	} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1/v1/chat/completions", bytes.NewReader([]byte(tt.in)))
		if err != nil {
			t.Fatal(err)
		}
		if err := addEncodedTools(req); err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		got, _ := io.ReadAll(req.Body)
		again, _ := req.GetBody()
		replay, _ := io.ReadAll(again)
		if string(got) != tt.want || string(replay) != tt.want || req.ContentLength != int64(len(tt.want)) {
			t.Errorf("%q became %q (replay %q, length %d), want %q", tt.in, got, replay, req.ContentLength, tt.want)
		}
	}
	for _, bad := range []string{``, `}`, ` }`, `[1]`} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1/", bytes.NewReader([]byte(bad)))
		if err := addEncodedTools(req); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
