package ollama

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// getJSON decodes a GET of the server's native API.
func (s *Server) getJSON(t *testing.T, path string, v any) {
	t.Helper()
	resp, err := http.Get(s.root + path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// chatUsage sends one non-streamed chat completion and returns the
// server's usage.prompt_tokens and the finish reason.
func (s *Server) chatUsage(t *testing.T, body map[string]any) (prompt int, finish string) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.Base()+"/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct {
		Choices []struct {
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("chat completion: HTTP %d: %s", resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("chat completion: %v: %s", err, data)
	}
	if len(out.Choices) > 0 {
		finish = out.Choices[0].FinishReason
	}
	return out.Usage.PromptTokens, finish
}
