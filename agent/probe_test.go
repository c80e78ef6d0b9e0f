package agent

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

func TestDefaultEndpoints(t *testing.T) {
	got := DefaultEndpoints()
	want := []string{"http://127.0.0.1:8080/v1", "http://127.0.0.1:1234/v1", "http://127.0.0.1:11434/v1", "http://127.0.0.1:8000/v1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	got[0] = "changed"
	if DefaultEndpoints()[0] == "changed" {
		t.Error("DefaultEndpoints returned shared state")
	}
}

func TestProbe(t *testing.T) {
	flavors := []struct {
		flavor     agenttest.Flavor
		opts       []agenttest.Option
		wantKind   string
		wantWindow int
		wantSource string
	}{
		{agenttest.LlamaCpp, nil, KindLlamaCpp, 6000, WindowFromLlamaCppProps},
		{agenttest.LMStudio, nil, KindLMStudio, 6000, WindowFromLMStudio},
		{agenttest.Ollama, nil, KindOllama, 6000, WindowFromOllamaShow},
		{agenttest.Ollama, []agenttest.Option{agenttest.WithOllamaLoaded(3000)}, KindOllama, 3000, WindowFromOllamaPs},
		{agenttest.VLLM, nil, KindVLLM, 6000, WindowFromVLLM},
		{agenttest.Plain, nil, KindOpenAI, 0, ""},
	}
	var candidates []string
	for _, f := range flavors {
		srv := agenttest.New(agenttest.Script{}, append(f.opts, agenttest.WithFlavor(f.flavor), agenttest.WithContextWindow(6000))...)
		t.Cleanup(srv.Close)
		candidates = append(candidates, srv.URL())
	}
	down := closedURL(t)
	candidates = append(candidates, down)

	got := Probe(context.Background(), nil, candidates)
	if len(got) != len(candidates) {
		t.Fatalf("got %d endpoints, want %d", len(got), len(candidates))
	}
	for i, f := range flavors {
		t.Run(f.wantKind+"/"+f.wantSource, func(t *testing.T) {
			ep := got[i]
			if ep.Err != nil || ep.BaseURL != candidates[i] || ep.Kind != f.wantKind {
				t.Fatalf("got %+v, want kind %s at %s", ep, f.wantKind, candidates[i])
			}
			wantID := "demo-model"
			if f.flavor == agenttest.Ollama {
				wantID = "demo-model:latest" // Ollama's ids are name:tag
			}
			if len(ep.Models) != 1 || ep.Models[0].ID != wantID {
				t.Fatalf("got models %+v, want [%s]", ep.Models, wantID)
			}
			if m := ep.Models[0]; m.ContextWindow != f.wantWindow || m.WindowSource != f.wantSource {
				t.Errorf("got window %d from %q, want %d from %q", m.ContextWindow, m.WindowSource, f.wantWindow, f.wantSource)
			}
		})
	}
	t.Run("down", func(t *testing.T) {
		ep := got[len(got)-1]
		if !errors.Is(ep.Err, ErrUnreachable) || ep.Kind != "" || !strings.Contains(ep.Err.Error(), "refused the connection") {
			t.Errorf("got %+v, want a refused-connection error", ep)
		}
	})
}

func TestContextWindow(t *testing.T) {
	tests := []struct {
		name       string
		flavor     agenttest.Flavor
		model      string
		wantWindow int
		wantSource string
	}{
		{"llama.cpp", agenttest.LlamaCpp, "demo-model", 5000, WindowFromLlamaCppProps},
		{"LM Studio loaded", agenttest.LMStudio, "demo-model", 5000, WindowFromLMStudio},
		{"Ollama num_ctx", agenttest.Ollama, "demo-model", 5000, WindowFromOllamaShow},
		{"vLLM", agenttest.VLLM, "demo-model", 5000, WindowFromVLLM},
		{"vLLM other model", agenttest.VLLM, "other", DefaultContextWindow, WindowFromDefault},
		{"plain server", agenttest.Plain, "demo-model", DefaultContextWindow, WindowFromDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.New(agenttest.Script{}, agenttest.WithFlavor(tt.flavor), agenttest.WithContextWindow(5000))
			t.Cleanup(srv.Close)
			n, src, err := NewClient(srv.URL(), "", nil).ContextWindow(context.Background(), tt.model)
			if err != nil || n != tt.wantWindow || src != tt.wantSource {
				t.Errorf("got (%d, %q, %v), want (%d, %q, nil)", n, src, err, tt.wantWindow, tt.wantSource)
			}
		})
	}
	t.Run("server down", func(t *testing.T) {
		n, src, err := NewClient(closedURL(t), "", nil).ContextWindow(context.Background(), "m")
		if !errors.Is(err, ErrUnreachable) || n != DefaultContextWindow || src != WindowFromDefault {
			t.Errorf("got (%d, %q, %v), want the default and ErrUnreachable", n, src, err)
		}
	})
}

func TestOllamaNumCtx(t *testing.T) {
	tests := []struct {
		params string
		want   int
	}{
		{"num_ctx 8192\nstop \"x\"", 8192},
		{"stop \"x\"\nnum_ctx                        32768", 32768},
		{"temperature 0.7", 0},
		{"num_ctx lots", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := ollamaNumCtx(tt.params); got != tt.want {
			t.Errorf("ollamaNumCtx(%q): got %d, want %d", tt.params, got, tt.want)
		}
	}
}

func TestCountTokens(t *testing.T) {
	t.Run("llama.cpp tokenizer, cached", func(t *testing.T) {
		srv := agenttest.New(agenttest.Script{}, agenttest.WithFlavor(agenttest.LlamaCpp))
		t.Cleanup(srv.Close)
		c := NewClient(srv.URL(), "", nil)
		n, exact := c.CountTokens(context.Background(), "twelve bytes")
		if n != 3 || !exact {
			t.Errorf("got (%d, %v), want (3, true) from the server's 4-bytes-per-token tokenizer", n, exact)
		}
	})
	t.Run("no tokenizer: estimate, endpoint asked once", func(t *testing.T) {
		var asked atomic.Int32
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/tokenize" {
				asked.Add(1)
			}
			http.NotFound(w, r)
		}))
		t.Cleanup(hs.Close)
		c := NewClient(hs.URL+"/v1", "", nil)
		for _, text := range []string{"twelve bytes", "another text", "twelve bytes"} {
			n, exact := c.CountTokens(context.Background(), text)
			if n != EstimateTokens(text) || exact {
				t.Errorf("%q: got (%d, %v), want (%d, false): the estimate", text, n, exact, EstimateTokens(text))
			}
		}
		if got := asked.Load(); got != 1 {
			t.Errorf("got %d /tokenize requests, want 1", got)
		}
	})
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{{"", 0}, {"a", 1}, {"abc", 1}, {"abcdefgh", 1}, {"abcdefghi", 2}, {strings.Repeat("x", 300), 38},
		{"12345", 5}, {"我们", 5}, {"👍", 3}, {"a  b", 3}}
	for _, tt := range tests {
		if got := EstimateTokens(tt.text); got != tt.want {
			t.Errorf("EstimateTokens(%q): got %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestModels(t *testing.T) {
	srv := agenttest.New(agenttest.Script{}, agenttest.WithFlavor(agenttest.VLLM), agenttest.WithModels("a", "b"),
		agenttest.WithContextWindow(7000))
	t.Cleanup(srv.Close)
	got, err := NewClient(srv.URL()+"/", "", nil).Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" || got[0].ContextWindow != 7000 || got[0].WindowSource != WindowFromVLLM {
		t.Errorf("got %+v, want a and b with vLLM's max_model_len", got)
	}
	t.Run("not an API", func(t *testing.T) {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("<html>hello</html>"))
		}))
		t.Cleanup(hs.Close)
		_, err := NewClient(hs.URL+"/v1", "", nil).Models(context.Background())
		if !errors.Is(err, ErrBadStream) || !strings.Contains(err.Error(), "not OpenAI-compatible JSON") {
			t.Errorf("got %v, want ErrBadStream with a sentence", err)
		}
	})
}

func TestProbeHungServer(t *testing.T) {
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // accept, then never answer
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(release) })
	// The caller's deadline (here short) bounds the probe like ProbeTimeout does.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got := Probe(ctx, nil, []string{hs.URL + "/v1"})
	if len(got) != 1 || !errors.Is(got[0].Err, ErrTimeout) || !strings.Contains(got[0].Err.Error(), "did not answer in time") {
		t.Errorf("got %+v, want a timeout error", got)
	}
}

func TestLlamaCppWindowVariants(t *testing.T) {
	tests := []struct {
		name       string
		props      string
		slots      string
		wantWindow int
		wantSource string
	}{
		{"default_generation_settings", `{"default_generation_settings":{"n_ctx":4000},"total_slots":1}`, `[]`, 4000, WindowFromLlamaCppProps},
		{"top-level n_ctx (older builds)", `{"n_ctx":3000,"total_slots":1}`, `[]`, 3000, WindowFromLlamaCppProps},
		{"slots when props has none", `{"total_slots":1}`, `[{"id":0,"n_ctx":2500}]`, 2500, WindowFromLlamaCppSlots},
		{"neither", `{"total_slots":1}`, `[]`, DefaultContextWindow, WindowFromDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/v1/models", func(w http.ResponseWriter, _ *http.Request) {
				_, _ = w.Write([]byte(`{"data":[{"id":"m","owned_by":"llamacpp"}]}`))
			})
			mux.HandleFunc("/props", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(tt.props)) })
			mux.HandleFunc("/slots", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(tt.slots)) })
			hs := httptest.NewServer(mux)
			t.Cleanup(hs.Close)
			c := NewClient(hs.URL+"/v1", "", nil)
			n, src, err := c.ContextWindow(context.Background(), "m")
			if kind, _ := c.Kind(context.Background()); kind != KindLlamaCpp {
				t.Errorf("got kind %q, want %q", kind, KindLlamaCpp)
			}
			if err != nil || n != tt.wantWindow || src != tt.wantSource {
				t.Errorf("got (%d, %q, %v), want (%d, %q, nil)", n, src, err, tt.wantWindow, tt.wantSource)
			}
		})
	}
}
