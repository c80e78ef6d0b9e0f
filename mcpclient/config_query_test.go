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

// TestEndpointCredentialByShape is SPEC B1 (issue 25 item 5): a credential
// is refused wherever the URL carries it — a fragment, a matrix parameter,
// a presigned URL's signature, a key in the path — by the parameter's name
// or by what the value looks like, and the refusal names neither the value
// nor more than the place. Path segments that are ids (UUIDs, digests,
// words) stay accepted.
func TestEndpointCredentialByShape(t *testing.T) {
	const key = "sk-live-4eC39HqLyjWDarjtT1zdp7dc"
	for _, tc := range []struct{ raw, place string }{
		{"https://mcp.example.com/mcp#access_token=Qm9vT2tLZXlGb3JUZXN0MTIz", "fragment"},
		{"https://mcp.example.com/mcp;token=Qm9vT2tLZXlGb3JUZXN0MTIz", "path"},
		{"https://mcp.example.com/mcp;jsessionid=1;Token=abc", "path"},
		{"https://bucket.s3.amazonaws.com/mcp?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=9f8e7d6c5b4a39281706f5e4d3c2b1a0", "query"},
		{"https://storage.googleapis.com/b/mcp?X-Goog-Signature=abc", "query"},
		{"https://mcp.example.com/v1/" + key + "/mcp", "path"},
		{"https://mcp.example.com/v1/ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3po1234/mcp", "path"},
		{"https://mcp.example.com/mcp/Zk3pQ9xW7vT2mN8bR4cY6hJ1sL5dF0gA3eK9uI2o", "path"},
		{"https://mcp.example.com/mcp?session=Zk3pQ9xW7vT2mN8bR4cY6hJ1sL5dF0gA", "query"},
		{"https://mcp.example.com/mcp#Zk3pQ9xW7vT2mN8bR4cY6hJ1sL5dF0gA3eK9", "fragment"},
		{"https://mcp.example.com/mcp?state=" + key, "query"},
	} {
		_, err := ParseEndpoint(tc.raw)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(ce.Sentence, "secret header") || !strings.Contains(ce.Sentence, tc.place) {
			t.Errorf("%s: %v, want a refusal naming the URL's %s and pointing at the secret header", tc.raw, err, tc.place)
			continue
		}
		for _, v := range []string{"Qm9v", "9f8e", "sk-live", "ghp_", "Zk3p", "abc"} {
			if strings.Contains(ce.Sentence, v) {
				t.Errorf("%s: the refusal repeats the value: %q", tc.raw, ce.Sentence)
			}
		}
		if strings.Count(ce.Sentence, ". ") > 0 || !strings.HasSuffix(ce.Sentence, ".") {
			t.Errorf("%s: not one sentence: %q", tc.raw, ce.Sentence)
		}
	}
	for _, raw := range []string{
		"https://mcp.example.com/mcp",
		"https://mcp.example.com/v1/projects/3f2b8c1e-9d4a-4b7e-a1c2-5e6f7a8b9c0d/mcp",
		"https://mcp.example.com/repos/0123456789abcdef0123456789abcdef01234567/mcp",
		"https://mcp.example.com/mcp?region=eu-west-1&format=json",
		"https://mcp.example.com/mcp/streamable-http-transport-endpoint-v2",
		"https://mcp.example.com/mcp;v=2",
		"https://mcp.example.com/mcp#section-two",
	} {
		if _, err := ParseEndpoint(raw); err != nil {
			t.Errorf("%s: %v, want accepted", raw, err)
		}
	}
}
