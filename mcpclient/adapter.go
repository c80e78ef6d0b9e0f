package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"vouch/tool"
)

// EffectFunc returns the reviewed effect of a tool identity from local
// policy (SPEC D1) for the definition whose digest is definition (SPEC
// D8): a rule pinned to another definition gives EffectMutating. Unknown
// identities should return EffectMutating.
type EffectFunc func(identity, definition string) Effect

// AgentTool makes one cached MCP tool a tool.Tool. effect is the tool's
// reviewed effect from local policy, never from its annotations (SPEC D2),
// for the definition cached now. The tool must be in the server's current
// catalog; whether it should be offered is the caller's decision (see
// Executable).
func (m *Manager) AgentTool(identity string, effect Effect) (tool.Tool, error) {
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

// AgentTools returns a tool.Tool for every executable tool, in the order
// of Executable. It reads the cached snapshot only: a submission never waits
// on an MCP server (SPEC B5).
func (m *Manager) AgentTools(effect EffectFunc) []tool.Tool {
	exec := m.Executable()
	out := make([]tool.Tool, 0, len(exec))
	for _, t := range exec {
		e := EffectMutating
		if effect != nil {
			e = effect(t.Identity, t.Digest)
		}
		out = append(out, &mcpTool{m: m, serverID: t.ServerID, info: t.ToolInfo, effect: e, reviewed: t.Digest})
	}
	return out
}

// mcpTool adapts one MCP tool to tool.Tool.
type mcpTool struct {
	m        *Manager
	serverID string
	info     ToolInfo
	effect   Effect
	reviewed string // the definition digest effect was read for (SPEC D8)
}

// Def implements tool.Tool. The description is the server's, sanitized and
// capped; approval previews must not rely on it (SPEC D3).
func (t *mcpTool) Def() tool.Def {
	desc := t.info.Description
	if desc == "" {
		desc = t.info.Title
	}
	return tool.Def{Identity: t.info.Identity, Description: desc, Parameters: json.RawMessage(t.info.InputSchema)}
}

// Call implements tool.Tool. The correlation ID is the run's own, from
// tool.WithCorrelationID, which a run sets before every call (one is
// generated otherwise; SPEC B7, H7). A tool-level failure is a
// ToolResult with IsError; a failure to get a result is a *CallError, whose
// message is one sentence fit to report to the model.
func (t *mcpTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	res, err := t.m.Call(ctx, t.serverID, t.info.Name, args, CallOptions{
		CorrelationID: tool.CorrelationID(ctx),
		Effect:        t.effect,
		Reviewed:      t.reviewed,
	})
	if err != nil {
		return tool.Result{}, err
	}
	return tool.Result{Text: res.Text, IsError: res.IsError}, nil
}
