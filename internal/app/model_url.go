package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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
	eps := agent.Probe(ctx, hc, []string{url, base + "/v1"})
	if eps[0].Err == nil || !errors.Is(eps[0].Err, agent.ErrServer) || eps[1].Err != nil {
		return url, ""
	}
	return eps[1].BaseURL, fmt.Sprintf("%s answered with an HTTP error and %s answered, so vouch uses that; pass --model-url %s next time",
		url, eps[1].BaseURL, eps[1].BaseURL)
}
