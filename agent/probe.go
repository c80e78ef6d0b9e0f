package agent

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// Server kinds Probe and Client.Kind report.
const (
	KindLlamaCpp = "llama.cpp"
	KindLMStudio = "LM Studio"
	KindOllama   = "Ollama"
	KindVLLM     = "vLLM"
	// KindOpenAI is any other OpenAI-compatible server.
	KindOpenAI = "OpenAI-compatible"
)

// ProbeTimeout bounds the probe of one candidate endpoint.
const ProbeTimeout = 2 * time.Second

// maxProbeWindows bounds how many models' context windows Probe looks up
// per endpoint (Ollama needs one request per model).
const maxProbeWindows = 16

// DefaultEndpoints returns the base URLs of the usual local model servers,
// in the order Probe reports them: llama.cpp's llama-server, LM Studio,
// Ollama and vLLM on their default ports (SPEC A1).
func DefaultEndpoints() []string {
	return []string{
		"http://127.0.0.1:8080/v1",  // llama.cpp llama-server
		"http://127.0.0.1:1234/v1",  // LM Studio
		"http://127.0.0.1:11434/v1", // Ollama
		"http://127.0.0.1:8000/v1",  // vLLM
	}
}

// Endpoint is what Probe found at one candidate base URL.
type Endpoint struct {
	BaseURL string
	// Kind is one of the Kind constants, "" when Err is set.
	Kind string
	// Models lists the server's models, with context windows where the
	// server reports them.
	Models []ModelInfo
	// Err is set when nothing usable answered; its message is a sentence.
	Err error
}

// Probe asks each candidate base URL (DefaultEndpoints when candidates is
// empty) for its models, concurrently, each within ProbeTimeout, and detects
// what kind of server answered. Results are in candidate order. hc may be
// nil. Probe contacts only the candidates.
func Probe(ctx context.Context, hc *http.Client, candidates []string) []Endpoint {
	return probeAll(ctx, hc, candidates, false)
}

// ProbeGiven is Probe of the URLs the person named (--model-url): a
// failure's advice checks that address instead of saying to pass
// --model-url, as Client.URLGiven's does (issue 28 item 12).
func ProbeGiven(ctx context.Context, hc *http.Client, urls []string) []Endpoint {
	return probeAll(ctx, hc, urls, true)
}

func probeAll(ctx context.Context, hc *http.Client, candidates []string, given bool) []Endpoint {
	if len(candidates) == 0 {
		candidates = DefaultEndpoints()
	}
	if hc == nil {
		hc = &http.Client{Transport: defaultTransport()}
	}
	out := make([]Endpoint, len(candidates))
	var wg sync.WaitGroup
	for i, base := range candidates {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
			defer cancel()
			c := NewClient(base, "", hc)
			c.given = given
			out[i] = c.probe(pctx)
		})
	}
	wg.Wait()
	return out
}

func (c *Client) probe(ctx context.Context) Endpoint {
	ep := Endpoint{BaseURL: c.baseURL}
	var list modelList
	if err := c.getJSON(ctx, c.baseURL+"/models", &list); err != nil {
		ep.Err = c.describe(err)
		return ep
	}
	ep.Kind = c.detectKind(ctx, list)
	for i, m := range list.Data {
		info := ModelInfo{ID: m.ID}
		if i < maxProbeWindows {
			if n, src, ok := c.serverWindow(ctx, m.ID); ok {
				info.ContextWindow, info.WindowSource = n, src
			}
		}
		ep.Models = append(ep.Models, info)
	}
	return ep
}

// Kind reports what kind of server the client talks to, detecting it on
// first use (a few small GETs) and remembering a successful answer.
func (c *Client) Kind(ctx context.Context) (string, error) {
	c.mu.Lock()
	kind := c.kind
	c.mu.Unlock()
	if kind != "" {
		return kind, nil
	}
	var list modelList
	if err := c.getJSON(ctx, c.baseURL+"/models", &list); err != nil {
		return "", c.describe(err)
	}
	return c.detectKind(ctx, list), nil
}

// detectKind tells the servers apart by their native endpoints: llama.cpp
// answers /props, vLLM marks its models owned_by "vllm" (and answers
// /version), Ollama answers /api/version, LM Studio /api/v0/models.
func (c *Client) detectKind(ctx context.Context, list modelList) string {
	kind := KindOpenAI
	var props llamaProps
	var version struct {
		Version string `json:"version"`
	}
	var lms lmsModels
	switch {
	case c.getJSON(ctx, c.rootURL+"/props", &props) == nil && props.isLlamaCpp():
		kind = KindLlamaCpp
	case ownedBy(list, "vllm"):
		kind = KindVLLM
	case c.getJSON(ctx, c.rootURL+"/api/version", &version) == nil && version.Version != "":
		kind = KindOllama
	case c.getJSON(ctx, c.rootURL+"/api/v0/models", &lms) == nil && lms.Data != nil:
		kind = KindLMStudio
	case c.getJSON(ctx, c.rootURL+"/version", &version) == nil && version.Version != "":
		kind = KindVLLM
	}
	c.mu.Lock()
	c.kind = kind
	c.mu.Unlock()
	return kind
}

func ownedBy(list modelList, owner string) bool {
	for _, m := range list.Data {
		if m.OwnedBy == owner {
			return true
		}
	}
	return false
}

// llamaProps is the part of llama.cpp's GET /props vouch reads.
type llamaProps struct {
	DefaultGenerationSettings *struct {
		NCtx int `json:"n_ctx"`
	} `json:"default_generation_settings"`
	NCtx       int             `json:"n_ctx"`
	TotalSlots int             `json:"total_slots"`
	ModelPath  json.RawMessage `json:"model_path"`
}

func (p llamaProps) isLlamaCpp() bool {
	return p.DefaultGenerationSettings != nil || p.NCtx > 0 || p.TotalSlots > 0
}

// nCtx is the per-slot context: default_generation_settings.n_ctx, else a
// top-level n_ctx (older builds).
func (p llamaProps) nCtx() int {
	if p.DefaultGenerationSettings != nil && p.DefaultGenerationSettings.NCtx > 0 {
		return p.DefaultGenerationSettings.NCtx
	}
	return p.NCtx
}

// lmsModels is LM Studio's GET /api/v0/models.
type lmsModels struct {
	Data []struct {
		ID                  string `json:"id"`
		State               string `json:"state"`
		MaxContextLength    int    `json:"max_context_length"`
		LoadedContextLength int    `json:"loaded_context_length"`
	} `json:"data"`
}
