package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
)

func TestWidensBoundaries(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"set_policy", true},
		{"setPolicy", true},
		{"policy.update", true},
		{"approve", true},
		{"auto_approve_tool", true},
		{"approveCall", true},
		{"add_mcp_server", true},
		{"addMCPServer", true},
		{"mcp_connect", true},
		{"functions.add-mcp-server", true},
		{"mcp_add_server", true},
		{"schedule_run", true},
		{"create_schedule", true},
		{"scheduler", true},
		{"cron", true},
		{"remember", true},
		{"memory_write", true},
		{"writeMemory", true},
		{"grant_workspace_access", true},
		{"grantPermissions", true},
		{"install_skill", true},
		{"installPackage", true},
		{"enable_skill", true},
		{"expand_workspace", true},
		{"set_permissions", true},
		{"add_rule", true},
		{"sudo", true},

		{"mcp_lookup_0123456789ab", false},
		{"mcp_write_file", false},
		{"mcp_search", false},
		{"delete_everything", false},
		{"fs_write", false},
		{"get_weather", false},
		{"read_memory", false},
		{"get_policy", false},
		{"list_servers", false},
		{"mcp", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := widensBoundaries(tt.name); got != tt.want {
				t.Errorf("widensBoundaries(%q) = %v (words %q), want %v", tt.name, got, nameWords(tt.name), tt.want)
			}
		})
	}
}

// TestBoundaryRefusal: a run asked for a boundary-widening tool it does not
// offer answers with the refusal the model can read, distinct from the
// unknown-tool error; nothing is decided, asked or run (SPEC D6). An
// offered tool with such a name is the person's choice and goes through the
// gate as any other.
func TestBoundaryRefusal(t *testing.T) {
	tests := []struct {
		name, wire string
		offer      string // identity of an extra offered tool
		want       string
		asks       bool
	}{
		{name: "set_policy", wire: "set_policy", want: BoundaryRefusal},
		{name: "add_mcp_server", wire: "add_mcp_server", want: BoundaryRefusal},
		{name: "mcp_connect", wire: "mcp_connect", want: BoundaryRefusal},
		{name: "create_schedule", wire: "create_schedule", want: BoundaryRefusal},
		{name: "memory_write", wire: "memory_write", want: BoundaryRefusal},
		{name: "grant_workspace_access", wire: "grant_workspace_access", want: BoundaryRefusal},
		{name: "install_skill", wire: "install_skill", want: InstallRefusal},
		{name: "an unknown name", wire: "frobnicate", want: `unknown tool "frobnicate": the available tools are`},
		{name: "offered by the person", wire: "install_notes", offer: "builtin:install_notes", asks: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			tools := []tool.Tool{rec.tool("builtin:send", "send", "sent")}
			ids := []string{"builtin:send"}
			if tt.offer != "" {
				tools = append(tools, rec.tool(tt.offer, "notes", "installed"))
				ids = append(ids, tt.offer)
			}
			res := runGate(t, turns([][2]string{{tt.wire, `{}`}}), RunSpec{Tools: tools, Decide: askFor(ids...)}, answers(false))
			if tt.asks {
				if len(res.approvals) != 1 || len(rec.got()) != 0 {
					t.Fatalf("got %d requests and invocations %q, want one request and a denial", len(res.approvals), rec.got())
				}
				return
			}
			fin := eventsOf[ToolCallFinished](res.evs)
			if len(fin) != 1 || !fin[0].IsError || !strings.HasPrefix(fin[0].Result, tt.want) {
				t.Fatalf("got %+v, want an error starting %q", fin, tt.want)
			}
			if len(res.approvals)+len(res.decided)+len(rec.got()) != 0 || !slices.Equal(outcomes(res.audits), []policy.Outcome(nil)) {
				t.Errorf("got %d requests, %d decisions, %d invocations, audits %v; want none", len(res.approvals), len(res.decided), len(rec.got()), res.audits)
			}
		})
	}
}

func TestInstallsSomething(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"install_skill", true},
		{"installPackage", true},
		{"pip_install", true},
		{"mcp_uninstall_plugin", true},
		{"marketplace_search", true},
		{"plugins.list", true},
		{"add_skill", true},
		{"enable_skill", true},
		{"download-package", true},
		{"skills.import", true},
		{"enableExtension", true},

		{"set_policy", false},
		{"add_mcp_server", false},
		{"read_skill_notes", false},
		{"list_packages", false},
		{"fs_read", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := installsSomething(tt.name); got != tt.want {
				t.Errorf("installsSomething(%q) = %v (words %q), want %v", tt.name, got, nameWords(tt.name), tt.want)
			}
		})
	}
}

// TestInstallRefusal: a model that asks to install a skill reads InstallRefusal — which points at the local
// import flow — as the tool result, and nothing is decided, asked or run
// (SPEC G7). TestDeferredRefusals covers the same through tool_invoke.
func TestInstallRefusal(t *testing.T) {
	for _, tt := range []struct{ name, wire, args string }{
		{"direct", "install_skill", `{"url":"https://example.invalid/skill.zip"}`},
		{"camel case", "installPlugin", `{}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			srv := agenttest.New(turns([][2]string{{tt.wire, tt.args}}))
			t.Cleanup(srv.Close)
			spec := RunSpec{Tools: []tool.Tool{rec.tool("builtin:send", "send", "sent")}, History: []Message{{Role: RoleUser, Content: "install the pdf skill"}}}
			decided := 0
			spec.Decide = func(policy.Call) policy.Decision { decided++; return policy.Decision{Verdict: policy.VerdictAllow} }
			spec.Audit = func(policy.Record) {}
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			var evs []Event
			for ev := range startRun(ctx, NewClient(srv.URL(), "", nil), spec) {
				evs = append(evs, ev)
				if _, ok := ev.(Done); ok {
					break
				}
			}
			fin := eventsOf[ToolCallFinished](evs)
			if len(fin) != 1 || !fin[0].IsError || !strings.HasSuffix(fin[0].Result, InstallRefusal) {
				t.Fatalf("tool results %+v, want exactly InstallRefusal", fin)
			}
			if !strings.Contains(InstallRefusal, "vouch skill install FILE") || !strings.Contains(InstallRefusal, "Settings › Skills") {
				t.Fatalf("the refusal does not point at the local import flow: %q", InstallRefusal)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			last := reqs[1].Messages[len(reqs[1].Messages)-1]
			if last.Role != "tool" || !strings.HasSuffix(last.Content, InstallRefusal) {
				t.Fatalf("the model read %+v, want the install refusal", last)
			}
			if decided != 0 || len(rec.got()) != 0 {
				t.Fatalf("%d decisions and invocations %q; want none", decided, rec.got())
			}
		})
	}
}
