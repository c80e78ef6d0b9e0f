package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"vouch/agent"
)

// resolveModelURL checks a configured base URL that does not end in /v1
// (issue 18 item 19): when the server answers it with an HTTP error (a
// 404 from llama.cpp, Ollama or vLLM, whose API is under /v1) and answers
// the same URL with /v1, the chat uses that, and note says so with what to
// pass next time — instead of a 404 now and "no model is chosen" later.
// Any other outcome keeps url as it was, note "".
func resolveModelURL(ctx context.Context, hc *http.Client, url string) (resolved, note string) {
	base := strings.TrimRight(url, "/")
	if strings.HasSuffix(base, "/v1") {
		return url, ""
	}
	eps := agent.ProbeGiven(ctx, hc, []string{url, base + "/v1"})
	if eps[0].Err == nil || !errors.Is(eps[0].Err, agent.ErrServer) || eps[1].Err != nil {
		return url, ""
	}
	return eps[1].BaseURL, fmt.Sprintf("%s answered with an HTTP error and %s answered, so vouch uses that; pass --model-url %s next time",
		url, eps[1].BaseURL, eps[1].BaseURL)
}

// The model server's base URL as people type it (issue 18 item 19):
// "localhost:8080" has no scheme, and "http://127.0.0.1:8080" no /v1 —
// both used to fail, the first with "unsupported protocol scheme", the
// second with a 404 and later "no model is chosen". Every server vouch
// knows (llama.cpp, LM Studio, Ollama, vLLM) serves its OpenAI API under
// /v1, so a URL without a scheme is taken as http:// and one without a
// path gets /v1. A URL with a path of its own is kept as typed: a proxy
// may serve the API anywhere.

// NormalizeModelURL returns raw as the base URL vouch uses, or a sentence
// that says what to pass.
func NormalizeModelURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not a model server URL; pass one like http://127.0.0.1:8080/v1", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("a model server URL starts with http:// or https://, not %s://; pass one like http://127.0.0.1:8080/v1", u.Scheme)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1"
	}
	return strings.TrimRight(u.String(), "/"), nil
}
