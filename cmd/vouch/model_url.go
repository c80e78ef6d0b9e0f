package main

import (
	"fmt"
	"net/url"
	"strings"
)

// The model server's base URL as people type it (issue 18 item 19):
// "localhost:8080" has no scheme, and "http://127.0.0.1:8080" no /v1 —
// both used to fail, the first with "unsupported protocol scheme", the
// second with a 404 and later "no model is chosen". Every server vouch
// knows (llama.cpp, LM Studio, Ollama, vLLM) serves its OpenAI API under
// /v1, so a URL without a scheme is taken as http:// and one without a
// path gets /v1. A URL with a path of its own is kept as typed: a proxy
// may serve the API anywhere.

// normalizeModelURL returns raw as the base URL vouch uses, or a sentence
// that says what to pass.
func normalizeModelURL(raw string) (string, error) {
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

// modelURLFlag is --model-url: what is set is normalised (normalizeModelURL).
type modelURLFlag struct{ p *string }

func (f modelURLFlag) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

func (f modelURLFlag) Set(s string) error {
	u, err := normalizeModelURL(s)
	if err != nil {
		return err
	}
	*f.p = u
	return nil
}
