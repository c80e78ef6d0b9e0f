package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/agent"

	"vouch/mcpclient"
	"vouch/mcpclient/apps"
	"vouch/mcpclient/mcptest"
	"vouch/tool"
)

// appsFixture is a session with an MCP Apps server and a plain one, and
// the apps service the TUI would read.
type appsFixture struct {
	s      *App
	svc    *AppsService[AppEvent]
	clock  *mcptest.Server
	other  *mcptest.Server
	tools  map[string]tool.Tool
	clockC mcpclient.ServerConfig
}

func newAppsFixture(t *testing.T) *appsFixture {
	t.Helper()
	f := &appsFixture{}
	var err error
	f.clock, err = mcptest.NewServer(mcptest.Options{Tools: []string{}, Apps: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.clock.Close() })
	f.other, err = mcptest.NewServer(mcptest.Options{Tools: []string{"echo"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.other.Close() })
	f.s, err = Open(context.Background(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.s.Close() })
	for _, srv := range []struct {
		name string
		url  string
	}{{"clock", f.clock.URL}, {"other", f.other.URL}} {
		cfg := mcpclient.NewServerConfig(srv.name, srv.url, "")
		cfg.Active = true
		if err := f.s.MCP().Manager().Put(cfg); err != nil {
			t.Fatal(err)
		}
		if err := f.s.MCP().Manager().Refresh(context.Background(), cfg.ID, mcpclient.NonInteractive); err != nil {
			t.Fatal(err)
		}
		if srv.name == "clock" {
			f.clockC = cfg
		}
	}
	env := map[string]string{"SSH_CONNECTION": "10.0.0.2 50000 10.0.0.1 22"}
	f.svc = NewAppsService(f.s.MCP().Manager(), f.s.Policy(), "test", func(k string) string { return env[k] }, sameEvent)
	f.s.SetApps(f.svc)
	f.tools = map[string]tool.Tool{}
	for _, tool := range f.svc.Wrap(f.s.MCP().Manager().AgentTools(nil)) {
		_, name, _ := mcpclient.ParseIdentity(tool.Def().Identity)
		f.tools[name] = tool
	}
	return f
}

// sameEvent is the front end's conversion when the front end reads
// AppEvents as they are.
func sameEvent(ev AppEvent) AppEvent { return ev }

// event waits for the next app event of type T.
func event[T AppEvent](t *testing.T, f *appsFixture) T {
	t.Helper()
	select {
	case ev := <-f.svc.events:
		got, ok := ev.(T)
		if !ok {
			var zero T
			t.Fatalf("event %T, want %T", ev, zero)
		}
		return got
	case <-time.After(10 * time.Second):
		var zero T
		t.Fatalf("no %T within 10s", zero)
		return zero
	}
}

// viewMessages waits for the bridge's next messages to the view.
func viewMessages(t *testing.T, b *apps.Bridge) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := b.Next(ctx)
	if err != nil || raw == nil {
		t.Fatalf("no message for the view: %v", err)
	}
	var out []map[string]any
	for _, r := range raw {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// TestAppsServiceWiring: a tool with a view gives the model its usual
// result and the TUI an app to open; the view gets input and result; its
// own calls pass the approval pane and the audit, reach the originating
// server only once approved, and never reach another server (SPEC J2-J5).
func TestAppsServiceWiring(t *testing.T) {
	f := newAppsFixture(t)
	if _, ok := f.tools["clock"].(*appTool[AppEvent]); !ok {
		t.Fatalf("clock is %T, want a tool with a view", f.tools["clock"])
	}
	if _, ok := f.tools["clock_tick"]; ok {
		t.Fatal("an app-only tool is offered to the model")
	}
	if _, ok := f.tools["echo"].(*appTool[AppEvent]); ok {
		t.Fatal("a tool without a view was wrapped")
	}

	ctx := tool.WithCorrelationID(context.Background(), "corr-1")
	res, err := f.tools["clock"].Call(ctx, json.RawMessage(`{"zone":"CET"}`))
	if err != nil || !strings.Contains(res.Text, "12:00") {
		t.Fatalf("the model's result: %+v, %v", res, err)
	}
	avail := event[AppAvailable](t, f)
	if avail.CorrelationID != "corr-1" || !strings.HasPrefix(avail.URL, "http://127.0.0.1:") ||
		!strings.HasPrefix(avail.SSH, "ssh -N -L ") {
		t.Fatalf("AppAvailable %+v", avail)
	}
	f.svc.mu.Lock()
	b := f.svc.views[0].bridge
	f.svc.mu.Unlock()

	// The view's side, as the sandbox proxy relays it.
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	viewMessages(t, b)
	b.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appInfo":{"name":"v","version":"1"},"appCapabilities":{},"protocolVersion":"2026-01-26"}}`))
	viewMessages(t, b)
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`))
	var got []map[string]any
	for len(got) < 2 {
		got = append(got, viewMessages(t, b)...)
	}
	if got[0]["method"] != "ui/notifications/tool-input" || got[1]["method"] != "ui/notifications/tool-result" {
		t.Fatalf("the view got %v", got)
	}
	sc := got[1]["params"].(map[string]any)["structuredContent"].(map[string]any)
	if sc["zone"] != "CET" {
		t.Fatalf("tool-result %v", got[1])
	}

	// The view calls an app-only tool: it waits for the approval pane.
	b.Handle([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"clock_tick","arguments":{"zone":"UTC"}}}`))
	ask := event[AppApproval](t, f)
	if ask.Request.Call.Identity != mcpclient.Identity(f.clockC.ID, "clock_tick") || ask.Server != "clock" {
		t.Fatalf("approval for %+v", ask)
	}
	if n := f.clock.Calls("clock_tick"); n != 0 {
		t.Fatalf("clock_tick ran %d times before approval", n)
	}
	d, err := f.s.DescribeTool(ask.Request.Call.Identity)
	if err != nil || d.ServerName != "clock" {
		t.Fatalf("the pane cannot describe the app-only tool: %+v, %v", d, err)
	}
	ask.Request.Reply <- agent.Decision{Allow: true}
	answer := viewMessages(t, b)
	if answer[0]["id"] != float64(2) || answer[0]["result"] == nil {
		t.Fatalf("the view's call answered %v", answer)
	}
	if n := f.clock.Calls("clock_tick"); n != 1 {
		t.Fatalf("clock_tick ran %d times, want 1", n)
	}
	recs, err := f.s.DB().DecisionsFor(ask.Request.Call.CorrelationID)
	if err != nil || len(recs) != 1 || recs[0].Outcome != "allowed" || recs[0].By != "person" {
		t.Fatalf("audit %+v, %v", recs, err)
	}

	// Denied: the server is never called; the audit says so.
	b.Handle([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"clock_reset"}}`))
	ask = event[AppApproval](t, f)
	ask.Request.Reply <- agent.Decision{Note: "not now"}
	answer = viewMessages(t, b)
	if e, ok := answer[0]["error"].(map[string]any); !ok || e["code"] != float64(-32000) {
		t.Fatalf("a denied call answered %v", answer)
	}
	if n := f.clock.Calls("clock_reset"); n != 0 {
		t.Fatalf("a denied call ran")
	}
	if recs, _ := f.s.DB().DecisionsFor(ask.Request.Call.CorrelationID); len(recs) != 1 || recs[0].Outcome != "denied" {
		t.Fatalf("audit of the denial %+v", recs)
	}

	// Another server's tool, and a model-only one: refused without asking.
	for _, name := range []string{"echo", "clock_model"} {
		b.Handle([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"` + name + `"}}`))
		answer = viewMessages(t, b)
		if _, ok := answer[0]["error"]; !ok {
			t.Fatalf("%s from the view answered %v", name, answer)
		}
	}
	if n := f.other.Calls("echo"); n != 0 {
		t.Fatal("a view reached another server")
	}
	select {
	case ev := <-f.svc.events:
		t.Fatalf("a refused call asked the person: %T", ev)
	default:
	}

	// Consent: a link refused in the terminal is refused to the view.
	b.Handle([]byte(`{"jsonrpc":"2.0","id":5,"method":"ui/open-link","params":{"url":"https://example.com"}}`))
	consent := event[AppConsent](t, f)
	if consent.Link != "https://example.com" {
		t.Fatalf("consent %+v", consent)
	}
	consent.Reply <- false
	if answer = viewMessages(t, b); answer[0]["error"] == nil {
		t.Fatalf("a refused link answered %v", answer)
	}
}

// TestAppsServiceProblem: a view that cannot be shown is reported beside
// the result, which the model still gets (SPEC J3).
func TestAppsServiceProblem(t *testing.T) {
	f := newAppsFixture(t)
	res, err := f.tools["clock_broken"].Call(tool.WithCorrelationID(context.Background(), "corr-2"), nil)
	if err != nil || !strings.Contains(res.Text, "12:00") {
		t.Fatalf("result %+v, %v", res, err)
	}
	p := event[AppProblem](t, f)
	if p.CorrelationID != "corr-2" || !strings.Contains(p.Sentence, "text/html") {
		t.Fatalf("problem %+v", p)
	}
	if launched, err := f.svc.OpenApp(context.Background(), "v1"); launched || err == nil {
		t.Fatalf("OpenApp of a view that never opened: %v, %v", launched, err)
	}
}

// TestAppsServiceBrowser: VOUCH_BROWSER, and only it, launches a browser.
func TestAppsServiceBrowser(t *testing.T) {
	svc := NewAppsService(nil, nil, "test", func(string) string { return "" }, sameEvent)
	if launched, err := svc.launch("http://127.0.0.1:1/v/x"); launched || err != nil {
		t.Fatalf("launched without VOUCH_BROWSER: %v %v", launched, err)
	}
	svc = NewAppsService(nil, nil, "test", func(k string) string {
		if k == "VOUCH_BROWSER" {
			return "true --flag"
		}
		return ""
	}, sameEvent)
	if launched, err := svc.launch("http://127.0.0.1:1/v/x"); !launched || err != nil {
		t.Fatalf("VOUCH_BROWSER=true: %v %v", launched, err)
	}
	svc = NewAppsService(nil, nil, "test", func(k string) string {
		if k == "VOUCH_BROWSER" {
			return "/nonexistent/browser"
		}
		return ""
	}, sameEvent)
	if _, err := svc.launch("http://127.0.0.1:1/v/x"); err == nil || !strings.Contains(err.Error(), "VOUCH_BROWSER") {
		t.Fatalf("a missing browser: %v", err)
	}
}
