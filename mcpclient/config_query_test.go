package mcpclient

import (
	"errors"
	"strings"
	"testing"
)

// TestEndpointQueryCredential is SPEC B1 (issue 14 item 7): a credential
// in the URL's query is refused like userinfo is, naming the parameter
// and never the value; ordinary query parameters stay accepted.
func TestEndpointQueryCredential(t *testing.T) {
	for _, raw := range []string{
		"https://mcp.example.com/mcp?api_key=sk-live-123456",
		"https://mcp.example.com/mcp?x=1&token=abc123secret",
		"https://mcp.example.com/mcp?access_token=abc",
		"https://mcp.example.com/mcp?Key=abc",
		"https://mcp.example.com/mcp?client-secret=abc",
		"https://mcp.example.com/mcp?githubToken=abc",
		"http://127.0.0.1:8080/mcp?apiKey=abc;x",
	} {
		_, err := ParseEndpoint(raw)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(ce.Sentence, "put the token in the secret header") {
			t.Errorf("%s: %v, want a refusal pointing at the secret header", raw, err)
			continue
		}
		if strings.Contains(ce.Sentence, "abc") || strings.Contains(ce.Sentence, "sk-live") {
			t.Errorf("%s: the refusal repeats the value: %q", raw, ce.Sentence)
		}
	}
	for _, raw := range []string{"https://mcp.example.com/mcp?region=eu&v=2", "https://mcp.example.com/mcp?monkey=1"} {
		if _, err := ParseEndpoint(raw); err != nil {
			t.Errorf("%s: %v, want accepted", raw, err)
		}
	}
}
