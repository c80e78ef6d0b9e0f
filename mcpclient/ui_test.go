package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"vouch/mcpclient/mcptest"
)

func TestParseToolUI(t *testing.T) {
	tests := []struct {
		name    string
		meta    string
		want    *ToolUI
		model   bool
		app     bool
		wantErr bool
	}{
		{name: "no meta", meta: ``, want: nil, model: true, app: true},
		{name: "other meta only", meta: `{"x":1}`, want: nil, model: true, app: true},
		{name: "resource, default visibility", meta: `{"ui":{"resourceUri":"ui://a/b.html"}}`,
			want: &ToolUI{ResourceURI: "ui://a/b.html"}, model: true, app: true},
		{name: "deprecated flat key", meta: `{"ui/resourceUri":"ui://a/b.html"}`,
			want: &ToolUI{ResourceURI: "ui://a/b.html"}, model: true, app: true},
		{name: "nested wins over flat", meta: `{"ui":{"resourceUri":"ui://new"},"ui/resourceUri":"ui://old"}`,
			want: &ToolUI{ResourceURI: "ui://new"}, model: true, app: true},
		{name: "app only", meta: `{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`,
			want: &ToolUI{ResourceURI: "ui://a", Visibility: []string{"app"}, VisibilitySet: true}, model: false, app: true},
		{name: "model only", meta: `{"ui":{"visibility":["model"]}}`,
			want: &ToolUI{Visibility: []string{"model"}, VisibilitySet: true}, model: true, app: false},
		{name: "empty visibility: nobody", meta: `{"ui":{"visibility":[]}}`,
			want: &ToolUI{Visibility: []string{}, VisibilitySet: true}, model: false, app: false},
		{name: "unknown audiences dropped, duplicates once", meta: `{"ui":{"visibility":["agent","app","app"]}}`,
			want: &ToolUI{Visibility: []string{"app"}, VisibilitySet: true}, model: false, app: true},
		{name: "visibility not a list", meta: `{"ui":{"visibility":"model"}}`, wantErr: true},
		{name: "ui not an object", meta: `{"ui":[1]}`, wantErr: true},
		{name: "not a ui uri", meta: `{"ui":{"resourceUri":"https://evil.example/x.html"}}`, wantErr: true},
		{name: "uri with a quote", meta: `{"ui":{"resourceUri":"ui://a\"b"}}`, wantErr: true},
		{name: "uri with an escape", meta: `{"ui":{"resourceUri":"ui://a\u001b[2Jb"}}`, wantErr: true},
		{name: "bare scheme", meta: `{"ui":{"resourceUri":"ui://"}}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := parseToolUI(json.RawMessage(tt.meta))
			if (reason != "") != tt.wantErr {
				t.Fatalf("reason = %q, want error %v", reason, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(tt.want)
			if !bytes.Equal(gj, wj) {
				t.Fatalf("got %s, want %s", gj, wj)
			}
			info := ToolInfo{UI: got}
			if info.ModelVisible() != tt.model || info.AppVisible() != tt.app {
				t.Errorf("model %v app %v, want %v %v", info.ModelVisible(), info.AppVisible(), tt.model, tt.app)
			}
		})
	}
}

func FuzzParseToolUI(f *testing.F) {
	for _, s := range []string{`{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`, `{"ui/resourceUri":"ui://x"}`, `{"ui":{"visibility":[]}}`, `null`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, meta string) {
		ui, reason := parseToolUI(json.RawMessage(meta))
		if reason != "" && ui != nil {
			t.Fatalf("both a reason and metadata")
		}
		if ui == nil {
			return
		}
		if ui.ResourceURI != "" && CheckUIResourceURI(ui.ResourceURI) != "" {
			t.Fatalf("kept an invalid URI %q", ui.ResourceURI)
		}
		for _, v := range ui.Visibility {
			if v != VisibilityModel && v != VisibilityApp {
				t.Fatalf("kept audience %q", v)
			}
		}
	})
}

func TestIsUIMimeType(t *testing.T) {
	for m, want := range map[string]bool{
		"text/html;profile=mcp-app":     true,
		"text/html; profile=mcp-app":    true,
		`TEXT/HTML;profile="mcp-app"`:   true,
		"text/html":                     false,
		"text/html;profile=other":       false,
		"text/plain;profile=mcp-app":    false,
		"text/html;profile=mcp-app;x=y": false,
		"":                              false,
	} {
		if got := IsUIMimeType(m); got != want {
			t.Errorf("IsUIMimeType(%q) = %v, want %v", m, got, want)
		}
	}
}

// appTools returns the names in entries.
func entryNames(entries []ToolEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name)
	}
	return out
}

// TestAppVisibility: tools whose visibility lacks "model" are neither
// listed nor offered, yet a view finds them (SPEC J2).
func TestAppVisibility(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{"echo"}, Apps: true})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "clock", srv.URL)

	listed := entryNames(m.Tools())
	want := []string{"clock", "clock_broken", "clock_legacy", "clock_model", "echo"}
	if !slices.Equal(listed, want) {
		t.Fatalf("Tools() = %v, want %v", listed, want)
	}
	if got := entryNames(m.Executable()); !slices.Equal(got, want) {
		t.Fatalf("Executable() = %v, want %v", got, want)
	}
	var offered []string
	for _, tool := range m.AgentTools(nil) {
		offered = append(offered, tool.Def().Identity)
	}
	for _, hidden := range []string{"clock_tick", "clock_reset"} {
		id := Identity(cfg.ID, hidden)
		if slices.Contains(offered, id) {
			t.Errorf("%s offered to the model", hidden)
		}
		if _, err := m.AgentTool(id, EffectReadOnly); err == nil {
			t.Errorf("AgentTool(%s) made an app-only tool a model tool", hidden)
		}
		e, ok := m.AppTool(cfg.ID, hidden)
		if !ok || !e.AppVisible() || e.ModelVisible() {
			t.Errorf("AppTool(%s) = %+v, %v; want an app-only tool", hidden, e.UI, ok)
		}
	}
	clock, _ := m.AppTool(cfg.ID, "clock")
	if clock.ResourceURI() != mcptest.AppViewURI || !clock.ModelVisible() || !clock.AppVisible() {
		t.Errorf("clock = %+v, want the view with the default visibility", clock.UI)
	}
	legacy, _ := m.AppTool(cfg.ID, "clock_legacy")
	if legacy.ResourceURI() != mcptest.AppLegacyURI {
		t.Errorf("clock_legacy resource = %q, want the deprecated flat key read", legacy.ResourceURI())
	}
	model, _ := m.AppTool(cfg.ID, "clock_model")
	if model.AppVisible() {
		t.Errorf("clock_model is app-visible")
	}
	echo, _ := m.AppTool(cfg.ID, "echo")
	if echo.UI != nil || !echo.AppVisible() {
		t.Errorf("echo has UI %+v", echo.UI)
	}

	// The metadata survives the catalog store (a restart).
	st, _ := m.Server(cfg.ID)
	b, err := json.Marshal(st.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	var back Catalog
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	tick, _ := back.Tool("clock_tick")
	if tick.ModelVisible() || !tick.AppVisible() || tick.ResourceURI() != mcptest.AppViewURI {
		t.Errorf("after a round trip clock_tick = %+v", tick.UI)
	}
	// Clone copies the visibility list.
	c := st.Catalog.Clone()
	for i := range c.Tools {
		if c.Tools[i].Name == "clock_tick" {
			c.Tools[i].UI.Visibility[0] = "model"
		}
	}
	if again, _ := m.AppTool(cfg.ID, "clock_tick"); again.ModelVisible() {
		t.Errorf("a clone shares the visibility list with the manager")
	}
}

// recorder keeps the bodies of the requests it forwards.
type recorder struct {
	mu     sync.Mutex
	bodies []string
	next   http.Handler
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, err := io.ReadAll(req.Body)
	if err == nil {
		r.mu.Lock()
		r.bodies = append(r.bodies, string(b))
		r.mu.Unlock()
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	r.next.ServeHTTP(w, req)
}

func (r *recorder) find(sub string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, b := range r.bodies {
		if strings.Contains(b, sub) {
			out = append(out, b)
		}
	}
	return out
}

// TestUIExtensionAdvertised: vouch advertises the extension with its MIME
// type, in either protocol era (SPEC J1).
func TestUIExtensionAdvertised(t *testing.T) {
	for _, era := range []struct {
		name   string
		era    mcptest.Era
		method string
	}{{"legacy", mcptest.EraLegacy, `"initialize"`}, {"modern", mcptest.EraBoth, `"tools/list"`}} {
		t.Run(era.name, func(t *testing.T) {
			srv := newServer(t, mcptest.Options{Era: era.era, Apps: true})
			rec := &recorder{next: srv}
			hs := httptest.NewServer(rec)
			t.Cleanup(hs.Close)
			m, _ := newManager(t, Options{})
			activeServer(t, m, "clock", hs.URL+"/mcp")
			bodies := rec.find(era.method)
			if len(bodies) == 0 {
				t.Fatalf("no %s request seen", era.method)
			}
			var msg struct {
				Params struct {
					Capabilities json.RawMessage `json:"capabilities"`
					Meta         map[string]json.RawMessage
				} `json:"params"`
			}
			if err := json.Unmarshal([]byte(bodies[0]), &msg); err != nil {
				t.Fatal(err)
			}
			want := `"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`
			if !strings.Contains(bodies[0], want) {
				t.Fatalf("%s does not advertise %s:\n%s", era.method, want, bodies[0])
			}
		})
	}
}

func TestReadUIResource(t *testing.T) {
	srv := newServer(t, mcptest.Options{Apps: true, Resources: true})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "clock", srv.URL)
	ctx := context.Background()

	res, err := m.ReadUIResource(ctx, cfg.ID, mcptest.AppViewURI)
	if err != nil {
		t.Fatalf("read view: %v", err)
	}
	if string(res.HTML) != mcptest.AppHTML {
		t.Errorf("HTML = %q", res.HTML)
	}
	if !slices.Equal(res.CSP.ConnectDomains, []string{"https://api.example.com"}) ||
		!slices.Equal(res.CSP.ResourceDomains, []string{"https://cdn.example.com"}) {
		t.Errorf("CSP = %+v", res.CSP)
	}
	if res.PrefersBorder == nil || !*res.PrefersBorder {
		t.Errorf("prefersBorder = %v", res.PrefersBorder)
	}
	blob, err := m.ReadUIResource(ctx, cfg.ID, "ui://clock/blob.html")
	if err != nil || string(blob.HTML) != mcptest.AppHTML {
		t.Errorf("blob: %q, %v", blob.HTML, err)
	}
	// The server lists no ui:// resource: reading does not depend on it.
	if n := srv.Requests("resources/read " + mcptest.AppViewURI); n != 1 {
		t.Errorf("resources/read of the view sent %d times, want 1", n)
	}

	for _, tt := range []struct{ file, want string }{
		{"wrongtype.html", "not text/html;profile=mcp-app"},
		{"huge.html", "larger than 4 MiB"},
		{"missing.html", "does not contain the app resource"},
		{"nothing.html", ""},
	} {
		t.Run(tt.file, func(t *testing.T) {
			_, err := m.ReadUIResource(ctx, cfg.ID, "ui://clock/"+tt.file)
			if err == nil || !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrProtocol saying %q", err, tt.want)
			}
		})
	}
	if _, err := m.ReadUIResource(ctx, cfg.ID, "https://example.com/x.html"); !errors.Is(err, ErrProtocol) {
		t.Errorf("a non-ui URI: %v", err)
	}
	if _, err := m.ReadUIResource(ctx, "nope", mcptest.AppViewURI); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
	if _, err := m.SetActive(cfg.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := m.ReadUIResource(ctx, cfg.ID, mcptest.AppViewURI); !errors.Is(err, ErrInactive) {
		t.Errorf("inactive server: %v", err)
	}
}

func TestParseUIResource(t *testing.T) {
	const uri = "ui://a/b.html"
	for _, tt := range []struct{ name, raw, want string }{
		{"both text and blob", `{"contents":[{"uri":"ui://a/b.html","mimeType":"text/html;profile=mcp-app","text":"x","blob":"eA=="}]}`, "neither text nor a blob"},
		{"bad base64", `{"contents":[{"uri":"ui://a/b.html","mimeType":"text/html;profile=mcp-app","blob":"!!"}]}`, "not valid base64"},
		{"not utf-8", `{"contents":[{"uri":"ui://a/b.html","mimeType":"text/html;profile=mcp-app","blob":"/w=="}]}`, "not valid UTF-8"},
		{"csp not lists", `{"contents":[{"uri":"ui://a/b.html","mimeType":"text/html;profile=mcp-app","text":"x","_meta":{"ui":{"csp":{"connectDomains":"https://a"}}}}]}`, "not lists of domains"},
		{"malformed", `[]`, "malformed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseUIResource(json.RawMessage(tt.raw), uri)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestCallRaw: the raw result keeps what a view needs, while the Result is
// the same text the model reads (SPEC J4, E1).
func TestCallRaw(t *testing.T) {
	srv := newServer(t, mcptest.Options{Apps: true})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "clock", srv.URL)
	res, raw, err := m.CallRaw(context.Background(), cfg.ID, "clock_tick", json.RawMessage(`{"zone":"CET"}`), CallOptions{CorrelationID: "c-1"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Content           []map[string]any `json:"content"`
		StructuredContent map[string]any   `json:"structuredContent"`
		Meta              map[string]any   `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("raw %s: %v", raw, err)
	}
	if got.StructuredContent["zone"] != "CET" || got.Meta["source"] != "mcptest" || len(got.Content) != 1 {
		t.Errorf("raw result lost something: %s", raw)
	}
	plain, err := m.Call(context.Background(), cfg.ID, "clock_tick", json.RawMessage(`{"zone":"CET"}`), CallOptions{CorrelationID: "c-1"})
	if err != nil || plain.Text != res.Text || res.CorrelationID != "c-1" {
		t.Errorf("Call text %q vs CallRaw %q (%v)", plain.Text, res.Text, err)
	}
}
