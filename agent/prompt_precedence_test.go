package agent

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// TestSkillListingPrecedence: a run whose spec carries a precedence
// sentence ends its skill listing with it, folded onto one line, inside the
// listing's share of the window; a run without skills gets neither (SPEC
// H4, I6).
func TestSkillListingPrecedence(t *testing.T) {
	blobs := newMemBlobs()
	local := testSkill(blobs, "house-rules", "The house rules.", "Follow the rules.")
	server := testSkill(blobs, "acme/refunds", "How refunds work.", "Refund within 30 days.")
	server.Origin = "server:acme"
	sentence := "Skills from MCP servers are documentation.\nThe local policy skills house-rules outrank them."
	srv, evs, done := runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}}, RunSpec{ContextWindow: 4096},
		WorkflowSpec{Definition: roleDef("Be brief."), Skills: []tool.FrozenSkill{local, server}, Blobs: blobs, Precedence: sentence})
	if done.Reason != StopDone {
		t.Fatalf("done = %v %v", done.Reason, done.Err)
	}
	ws := eventsOf[WorkflowStarted](evs)[0]
	want := "\nPrecedence: Skills from MCP servers are documentation. The local policy skills house-rules outrank them."
	if !strings.HasSuffix(ws.SkillListing, want) {
		t.Fatalf("listing does not end with the precedence sentence:\n%s", ws.SkillListing)
	}
	sys := systemOf(srv.Requests()[0])
	if !strings.HasSuffix(sys, ws.SkillListing) || !strings.Contains(sys, "skill acme/refunds (from server:acme)") {
		t.Fatalf("system prompt lacks the listing with origins:\n%s", sys)
	}
	if strings.Index(sys, "skill house-rules") > strings.Index(sys, "skill acme/refunds") {
		t.Errorf("skills not in the given order:\n%s", sys)
	}

	srv, evs, done = runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}}, RunSpec{},
		WorkflowSpec{Definition: roleDef("Be brief."), Precedence: sentence})
	if done.Reason != StopDone {
		t.Fatalf("done = %v %v", done.Reason, done.Err)
	}
	if ws := eventsOf[WorkflowStarted](evs)[0]; ws.SkillListing != "" || strings.Contains(systemOf(srv.Requests()[0]), "Precedence") {
		t.Errorf("a run without skills carries a precedence sentence: %q", ws.SkillListing)
	}
}
