package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"vouch/agent"
	"vouch/internal/view"
)

// SettingDefaultToolsOff is the setting that holds the tools a new
// conversation starts with turned off (the tool selector's "keep as
// default", issue 18 item 22): a JSON array of identities.
const SettingDefaultToolsOff = "default-tools-off"

// ToolSelection is view.ToolSelection (internal/view), shared with the
// interface: the current conversation's tools with the tokens each costs
// sent in full, whether it asks the person (such a tool is always sent in
// full, never deferred: SPEC F3) and whether it is on.
type ToolSelection = view.ToolSelection

// ToolChoice is view.ToolChoice (internal/view), shared with the interface.
type ToolChoice = view.ToolChoice

// ToolSelection lists the tools of the current conversation for a model
// with window tokens (0: the default window).
func (a *App) ToolSelection(window int) (ToolSelection, error) {
	convID, _ := a.Current()
	off, err := a.db.DisabledTools(convID)
	if err != nil {
		return ToolSelection{}, err
	}
	tools := a.BuiltinTools()
	if a.WorkflowsOn() {
		tools = append(tools, a.mcp.mgr.AgentTools(a.policy.Effect)...)
	}
	if window <= 0 {
		window = agent.DefaultContextWindow
	}
	snap, _ := loadSnapshot(a.db, "")
	asks := agent.AsksPersonFrom(a.policy.Decider(snap))
	// Planned with every tool over a window too small for them, so the
	// plan says what deferring costs; the counts are the plan's own.
	plan := agent.PlanTools(agent.PlanInput{Tools: tools, Window: 1, Fraction: 1, AsksPerson: asks, Label: a.mcp.Label})
	tokens := toolTokens(tools)
	labels := a.mcp.ToolLabels()
	out := ToolSelection{Window: window, Budget: int(agent.DefaultToolBudget * float64(window)), MetaTokens: plan.MetaTokens}
	for _, t := range tools {
		id := t.Def().Identity
		out.Tools = append(out.Tools, ToolChoice{Identity: id, Server: labels.Server(id), Name: toolName(id),
			Tokens: tokens[id], Asks: asks != nil && asks(id), On: !off[id]})
	}
	return out, nil
}

// toolName is the last part of an identity: "lookup" of
// "mcp:<server>:lookup", "fs_read" of "builtin:fs_read".
func toolName(identity string) string {
	if i := strings.LastIndexByte(identity, ':'); i >= 0 {
		return identity[i+1:]
	}
	return identity
}

// ApplyToolSelection turns off exactly the tools in off for the current
// conversation and turns every other tool of tools back on; with
// asDefault the same tools start off in every new conversation. Turning a
// tool off defers nothing: the run simply does not offer it (SPEC F3).
func (a *App) ApplyToolSelection(tools, off []string, asDefault bool) error {
	convID, _ := a.Current()
	for _, id := range tools {
		if err := a.db.SetToolEnabled(convID, id, !slices.Contains(off, id)); err != nil {
			return err
		}
	}
	if !asDefault {
		return nil
	}
	sorted := slices.Sorted(slices.Values(off))
	data, err := json.Marshal(sorted)
	if err != nil {
		return fmt.Errorf("save the default tool selection: %w", err)
	}
	return a.db.SetSetting(SettingDefaultToolsOff, string(data))
}

// DefaultToolsOff is the tools a new conversation starts with off.
func (a *App) DefaultToolsOff() ([]string, error) {
	v, ok, err := a.db.Setting(SettingDefaultToolsOff)
	if err != nil || !ok {
		return nil, err
	}
	var off []string
	if err := json.Unmarshal([]byte(v), &off); err != nil {
		return nil, fmt.Errorf("read the default tool selection (%v); choose the tools again in the tool selector and keep them as the default", err)
	}
	return off, nil
}

// applyDefaultTools turns off, in the new conversation convID, the tools
// the person kept as the default.
func (a *App) applyDefaultTools(convID string) error {
	off, err := a.DefaultToolsOff()
	if err != nil {
		return err
	}
	for _, id := range off {
		if err := a.db.SetToolEnabled(convID, id, false); err != nil {
			return err
		}
	}
	return nil
}
