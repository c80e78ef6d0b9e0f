package agent

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// TestChatAt512 (SPEC F5; issue 17 item 5): with a 512-token window and
// the built-in tools (the write tools asking the person) vouch still
// answers "hello".
func TestChatAt512(t *testing.T) {
	ws, err := OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ws.Close() }()
	asks := func(id string) bool { return id == IdentityFSWrite || id == IdentityFSEdit }
	for _, flavor := range []agenttest.Flavor{agenttest.LlamaCpp, agenttest.Ollama} {
		srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("Hi.")}},
			RunSpec{ContextWindow: 512, SystemPrompt: "You are vouch's assistant.", History: []Message{{Role: RoleUser, Content: "hello"}},
				Tools: append(ws.Tools(), ws.WriteTools()...), AsksPerson: asks},
			agenttest.WithFlavor(flavor), agenttest.WithContextWindow(512))
		if done.Reason != StopDone || text(evs) != "Hi." {
			t.Errorf("%v: done %s %v, text %q: want an answer", flavor, done.Reason, done.Err, text(evs))
			continue
		}
		u := eventsOf[Usage](evs)
		if len(u) != 1 || !strings.Contains(u[0].Notice(), "vouch's file tools were left out") || strings.Contains(u[0].Notice(), "\n") {
			t.Errorf("%v: usage %+v: want one line saying vouch's tools were left out", flavor, u)
		}
		t.Logf("%v: %d tools sent; notice %q", flavor, len(srv.Requests()[0].Tools), u[0].Notice())
	}
}

// TestFallbackWindowTakesEverything (SPEC F5; issue 17 item 5): with no
// window reported, the fallback (DefaultContextWindow) stays conservative
// but lets a typical server's tools — server-everything's (19 in the shared catalog), none of
// them asking here, with vouch's own write tools asking — through
// deferral rather than refusing.
func TestFallbackWindowTakesEverything(t *testing.T) {
	var tools []tool.Tool
	for _, c := range loadCatalogs(t, func(f string) bool { return f == "everything.json" }) {
		tools = append(tools, c.tool())
	}
	if len(tools) < 13 {
		t.Fatalf("server-everything has %d tools in the catalog, want at least 13", len(tools))
	}
	ws, err := OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ws.Close() }()
	all := append(append(ws.Tools(), ws.WriteTools()...), tools...)
	asks := func(id string) bool { return id == IdentityFSWrite || id == IdentityFSEdit }
	p := PlanTools(PlanInput{Tools: all, AsksPerson: asks})
	if p.Err != nil || !p.Fits || p.Window != DefaultContextWindow || p.Window > 4096 {
		t.Fatalf("fallback plan %+v: %v", p.Summary(), p.Err)
	}
	t.Logf("fallback %d-token window: %+v", p.Window, p.Summary())
}
