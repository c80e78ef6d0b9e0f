package chat

import "vouch/agent"

// ToolName is how the transcript names a call's tool: its identity, or
// the wire name the model used when the run knows no such tool. The phase
// line names a running tool the same way (issue 18 item 1). The name is
// untrusted: callers pass it through safetext when they draw it.
func ToolName(c agent.ToolCall) string {
	if c.Identity == "" {
		return c.WireName + " (unknown tool)"
	}
	return c.Identity
}
