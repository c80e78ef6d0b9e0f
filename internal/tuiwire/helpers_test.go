package tuiwire

import (
	"context"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/store/storetest"
)

// The helpers of the adapter's tests, as cmd/vouch's tests have them: a
// session, an MCP server, skill packages, a definition and a script.

// openTestSession opens a session on the state dir state; the test closes
// it.
func openTestSession(t *testing.T, state string) *app.App {
	t.Helper()
	s, err := app.Open(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// roleDefinition is storetest's role definition "notes".
const roleDefinition = storetest.RoleDefinition

// skillScript loads the skill once, then answers.
func skillScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Notes written.")},
		{Match: agenttest.Offers("skill_load"), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "skill_load", `{"name":"release-notes"}`)}},
		{Repeat: true, Steps: agenttest.Words("No skills here.")},
	}}
}
