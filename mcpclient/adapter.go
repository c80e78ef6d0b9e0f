package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"vouch/agent"
)

// WithCorrelationID returns ctx carrying the correlation ID of the tool call
// about to run; it is agent.WithCorrelationID, which a run sets before every
// Tool.Call, so the MCP adapter passes the run's own ID on (SPEC B7, H7).
func WithCorrelationID(ctx context.Context, id string) context.Context {
	return agent.WithCorrelationID(ctx, id)
}

// CorrelationIDFrom returns the correlation ID set by WithCorrelationID.
func CorrelationIDFrom(ctx context.Context) string { return agent.CorrelationID(ctx) }

// EffectFunc returns the reviewed effect of a tool identity from local
// policy (SPEC D1) for the definition whose digest is definition (SPEC
// D8): a rule pinned to another definition gives EffectMutating. Unknown
// identities should return EffectMutating.
type EffectFunc func(identity, definition string) Effect

// AgentTool makes one cached MCP tool an agent.Tool. effect is the tool's
// reviewed effect from local policy, never from its annotations (SPEC D2),
// for the definition cached now. The tool must be in the server's current
// catalog; whether it should be offered is the caller's decision (see
// Executable).
func (m *Manager) AgentTool(identity string, effect Effect) (agent.Tool, error) {
	serverID, name, ok := ParseIdentity(identity)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not an MCP tool identity", ErrUnknownTool, cleanText(identity, 200))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.servers[serverID]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownServer, serverID)
	}
	info, ok := s.catalog.Tool(name)
	if !s.hasCatalog || !ok || !info.ModelVisible() {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTool, cleanText(identity, 200))
	}
	return &mcpTool{m: m, serverID: serverID, info: info, effect: effect, reviewed: info.Digest}, nil
}

// AgentTools returns an agent.Tool for every executable tool, in the order
// of Executable. It reads the cached snapshot only: a submission never waits
// on an MCP server (SPEC B5).
func (m *Manager) AgentTools(effect EffectFunc) []agent.Tool {
	exec := m.Executable()
	out := make([]agent.Tool, 0, len(exec))
	for _, t := range exec {
		e := EffectMutating
		if effect != nil {
			e = effect(t.Identity, t.Digest)
		}
		out = append(out, &mcpTool{m: m, serverID: t.ServerID, info: t.ToolInfo, effect: e, reviewed: t.Digest})
	}
	return out
}

// mcpTool adapts one MCP tool to agent.Tool.
type mcpTool struct {
	m        *Manager
	serverID string
	info     ToolInfo
	effect   Effect
	reviewed string // the definition digest effect was read for (SPEC D8)
}

// Def implements agent.Tool. The description is the server's, sanitized and
// capped; approval previews must not rely on it (SPEC D3).
func (t *mcpTool) Def() agent.ToolDef {
	desc := t.info.Description
	if desc == "" {
		desc = t.info.Title
	}
	return agent.ToolDef{Identity: t.info.Identity, Description: desc, Parameters: json.RawMessage(t.info.InputSchema)}
}

// Call implements agent.Tool. The correlation ID comes from
// WithCorrelationID (one is generated otherwise). A tool-level failure is a
// ToolResult with IsError; a failure to get a result is a *CallError, whose
// message is one sentence fit to report to the model.
func (t *mcpTool) Call(ctx context.Context, args json.RawMessage) (agent.ToolResult, error) {
	res, err := t.m.Call(ctx, t.serverID, t.info.Name, args, CallOptions{
		CorrelationID: CorrelationIDFrom(ctx),
		Effect:        t.effect,
		Reviewed:      t.reviewed,
	})
	if err != nil {
		return agent.ToolResult{}, err
	}
	return agent.ToolResult{Text: res.Text, IsError: res.IsError}, nil
}
