package app

import (
	"context"
	"fmt"
	"net/http"

	"vouch/agent"
	"vouch/mcpclient"
	"vouch/tool"
	"vouch/workflow"
)

// ToolPlan is exactly what a run would send for tools, inline and
// deferred, with token counts (SPEC F1–F3): `vouch tools plan --json`.
type ToolPlan struct {
	Window       int     `json:"window"`
	WindowSource string  `json:"window_source"`
	Fraction     float64 `json:"fraction"`
	Budget       int     `json:"budget"`
	Counted      string  `json:"counted"` // "server tokenizer" (counts kept from earlier runs) or "estimate"
	// Note says which of vouch's own tools a run would leave out to fit a
	// small window (SPEC F5), "" when none.
	Note          string        `json:"note,omitempty"`
	Sent          int           `json:"sent_tokens"`
	AllInline     int           `json:"all_inline_tokens"`
	MetaTokens    int           `json:"meta_tokens"`
	ListingTokens int           `json:"listing_tokens"`
	Fits          bool          `json:"fits"`
	Error         string        `json:"error,omitempty"`
	Inline        []PlannedTool `json:"inline"`
	Deferred      []PlannedTool `json:"deferred"`
	Meta          []string      `json:"meta_tools"`
	// With a profile: the selected tools no server offers now, and the
	// tools the run adds beside its allowlist (skill_load, skill_read,
	// delegate), outside the budget but inside the window (SPEC H5).
	Unavailable    []string      `json:"unavailable,omitempty"`
	Workflow       []PlannedTool `json:"workflow_tools,omitempty"`
	WorkflowTokens int           `json:"workflow_tokens,omitempty"`
	ModelServerErr string        `json:"model_server_error,omitempty"`
}

// PlannedTool is one tool of a ToolPlan.
type PlannedTool struct {
	Identity string `json:"identity"`
	Wire     string `json:"wire_name"`
	Server   string `json:"server"`
	Tokens   int    `json:"tokens"`
	Asks     bool   `json:"asks"`
}

// PlanOptions is what a tools plan is made for.
type PlanOptions struct {
	// Dir is the workspace folder (a profile's own workspace wins).
	Dir string
	// Window plans for this context window instead of the model
	// server's (0: ask the server).
	Window int
	// Profile plans for this Agent Profile's tools, window and tool
	// budget ("": the chat's enabled tools).
	Profile string
	// ModelURL and Model are the model server and model to ask ("":
	// probe the default endpoints; the profile's, the saved or the
	// server's first model).
	ModelURL, Model string
	// Warm refreshes the active servers before their tools are read; nil
	// refreshes nothing.
	Warm func(context.Context)
}

// PlanTools computes the tools plan a run would make now. With a profile,
// the plan is that profile's: its allowlist, its workspace, its tool
// budget, and its context window setting (see EffectiveWindow); an
// explicit window still wins. A model server that cannot be reached is
// no error: the plan uses the default window and says why.
func (s *State) PlanTools(ctx context.Context, o PlanOptions) (ToolPlan, error) {
	var prof *workflow.Profile
	cwd := o.Dir
	if o.Profile != "" {
		p, err := s.Profiles().Profile(o.Profile)
		if err != nil {
			return ToolPlan{}, err
		}
		if on, err := s.db.WorkflowsEnabled(); err != nil {
			return ToolPlan{}, err
		} else if !on {
			return ToolPlan{}, Wrap(Failure, ErrWorkflowsOff)
		}
		prof = &p
		if p.Workspace != "" {
			cwd = p.Workspace
		}
	}
	ws, err := agent.OpenWorkspace(cwd)
	if err != nil {
		return ToolPlan{}, fmt.Errorf("open the workspace: %w", err)
	}
	defer func() { _ = ws.Close() }()
	if o.Warm != nil {
		o.Warm(ctx)
	}
	mgr := s.mcp.Manager()
	mcpTools := mgr.AgentTools(func(string, string) mcpclient.Effect { return mcpclient.EffectMutating })
	all := append(append(ws.Tools(), ws.WriteTools()...), mcpTools...)
	var tools []tool.Tool
	var unavailable []string
	if prof != nil {
		tools, unavailable = agent.AllowedTools(all, prof.Tools) // as a run offers them
	} else {
		tools = enabledTools(s.db, s.latestConversation(), all)
	}
	fraction := agent.DefaultToolBudget
	if prof != nil && prof.ToolBudget > 0 {
		fraction = prof.ToolBudget
	}

	out := ToolPlan{Window: o.Window, WindowSource: "--context", Counted: "estimate"}
	count := agent.EstimateTokens
	var client *agent.Client
	var model string
	if out.Window == 0 {
		out.Window, out.WindowSource = agent.DefaultContextWindow, "default"
		var err error
		if client, model, err = s.resolveModel(ctx, o.ModelURL, o.Model, prof); err != nil {
			out.ModelServerErr = err.Error()
		} else {
			if n, src, err := client.ContextWindow(ctx, model); err == nil && n > 0 {
				out.Window, out.WindowSource = n, src
			}
			if prof != nil {
				out.Window, out.WindowSource = EffectiveWindow(out.Window, out.WindowSource, *prof)
			}
			// Counted as a run counts (SPEC F4): with the counts kept from
			// earlier runs, else the estimate — no round trip per tool.
			client.SetCountStore(s.db)
			count = client.PlanCounter(model)
		}
	}
	snap, _ := loadSnapshot(s.db, cwd)
	// Decided as a run decides: against the definitions served now (SPEC D8).
	rp := newPolicy(s.db, cwd, nil)
	rp.SetServed(mgr)
	in := agent.PlanInput{Tools: tools, Window: out.Window, Fraction: fraction, AsksPerson: agent.AsksPersonFrom(rp.Decider(snap)),
		Count: count, Label: s.mcp.Label}
	var plan agent.Plan
	if client != nil {
		var counted bool
		plan, out.Note, counted = client.PlanFor(model, in)
		if counted {
			out.Counted = "server tokenizer"
		}
	} else {
		plan = agent.PlanTools(in)
	}
	out.Fraction, out.Budget, out.Sent, out.AllInline = fraction, plan.Budget, plan.SentTokens(), plan.AllInlineTokens
	out.MetaTokens, out.ListingTokens, out.Fits, out.Meta = plan.MetaTokens, plan.ListingTokens, plan.Fits, plan.Meta
	if plan.Err != nil {
		out.Error = plan.Err.Error()
	}
	if prof != nil {
		def, err := s.db.Definition(prof.Definition, prof.DefinitionRevision)
		if err != nil {
			return ToolPlan{}, err
		}
		out.Unavailable = unavailable
		for _, t := range agent.WorkflowTools(def, len(prof.Skills), count) {
			out.Workflow = append(out.Workflow, PlannedTool{t.Def.Identity, t.Wire, "vouch", t.Tokens, false})
			out.WorkflowTokens += t.Tokens
		}
	}
	for _, t := range plan.Inline {
		out.Inline = append(out.Inline, PlannedTool{t.Identity, t.Wire, t.Label, t.Tokens, t.Asks})
	}
	for _, t := range plan.Deferred {
		out.Deferred = append(out.Deferred, PlannedTool{t.Identity, t.Wire, t.Label, t.Tokens, t.Asks})
	}
	return out, nil
}

// latestConversation is the conversation the TUI would open, or "".
func (s *State) latestConversation() string {
	conv, ok, err := s.db.LatestChatConversation()
	if err != nil || !ok {
		return ""
	}
	return conv.ID
}

// resolveModel finds the model server and model as a run would (of the
// profile, when one is given).
func (s *State) resolveModel(ctx context.Context, url, model string, prof *workflow.Profile) (*agent.Client, string, error) {
	if url == "" {
		for _, ep := range agent.Probe(ctx, &http.Client{}, agent.DefaultEndpoints()) {
			if ep.Err == nil {
				url = ep.BaseURL
				break
			}
		}
		if url == "" {
			return nil, "", fmt.Errorf("%w; the plan uses the default window (pass --context or --model-url)", ErrNoServer)
		}
	}
	client := agent.NewClient(url, "", &http.Client{})
	if prof != nil && prof.Model != "" {
		model = prof.Model
	}
	if model == "" {
		if m, ok, err := s.db.Setting(SettingModel); err == nil && ok {
			model = m
		}
	}
	if model == "" {
		models, err := client.Models(ctx)
		if err != nil {
			return nil, "", err
		}
		if len(models) == 0 {
			return nil, "", fmt.Errorf("the model server at %s lists no models", url)
		}
		model = models[0].ID
	}
	return client, model, nil
}
