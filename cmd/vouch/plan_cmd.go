package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"

	"vouch/agent"

	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/tool"
	"vouch/workflow"
)

// planJSON is `vouch tools plan --json`: exactly what a run would send for
// tools, inline and deferred, with token counts (SPEC F1–F3).
type planJSON struct {
	Window        int           `json:"window"`
	WindowSource  string        `json:"window_source"`
	Fraction      float64       `json:"fraction"`
	Budget        int           `json:"budget"`
	Counted       string        `json:"counted"` // "server tokenizer" or "estimate"
	Sent          int           `json:"sent_tokens"`
	AllInline     int           `json:"all_inline_tokens"`
	MetaTokens    int           `json:"meta_tokens"`
	ListingTokens int           `json:"listing_tokens"`
	Fits          bool          `json:"fits"`
	Error         string        `json:"error,omitempty"`
	Inline        []plannedJSON `json:"inline"`
	Deferred      []plannedJSON `json:"deferred"`
	Meta          []string      `json:"meta_tools"`
	// With --profile: the selected tools no server offers now, and the
	// tools the run adds beside its allowlist (skill_load, skill_read,
	// delegate), outside the budget but inside the window (SPEC H5).
	Unavailable    []string      `json:"unavailable,omitempty"`
	Workflow       []plannedJSON `json:"workflow_tools,omitempty"`
	WorkflowTokens int           `json:"workflow_tokens,omitempty"`
	ModelServerErr string        `json:"model_server_error,omitempty"`
}

type plannedJSON struct {
	Identity string `json:"identity"`
	Wire     string `json:"wire_name"`
	Server   string `json:"server"`
	Tokens   int    `json:"tokens"`
	Asks     bool   `json:"asks"`
}

// runToolsPlan is `vouch tools plan [--profile P] [--context N] [--json]`.
// With a profile, the plan is that profile's: its allowlist, its workspace,
// its tool budget, and its context window setting (see effectiveWindow);
// --context still wins.
func runToolsPlan(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("tools plan", g)
	asJSON := fs.Bool("json", false, "print JSON")
	window := fs.Int("context", 0, "plan for this context window instead of the model server's")
	profileName := fs.String("profile", "", "plan for this Agent Profile's tools, window and tool budget")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if *window < 0 {
		return app.Errorf(app.Usage, "--context must be a positive number of tokens")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find the working directory: %w", err)
	}
	return withState(ctx, g, e, func(s *state) error {
		var prof *workflow.Profile
		if *profileName != "" {
			p, err := s.Profiles().Profile(*profileName)
			if err != nil {
				return err
			}
			if on, err := s.DB().WorkflowsEnabled(); err != nil {
				return err
			} else if !on {
				return app.Wrap(app.Failure, app.ErrWorkflowsOff)
			}
			prof = &p
			if p.Workspace != "" {
				cwd = p.Workspace
			}
		}
		ws, err := agent.OpenWorkspace(cwd)
		if err != nil {
			return fmt.Errorf("open the workspace: %w", err)
		}
		defer func() { _ = ws.Close() }()
		warmBriefly(ctx, s.MCP().Manager())
		mcpTools := s.MCP().Manager().AgentTools(func(string, string) mcpclient.Effect { return mcpclient.EffectMutating })
		all := append(append(ws.Tools(), ws.WriteTools()...), mcpTools...)
		var tools []tool.Tool
		var unavailable []string
		if prof != nil {
			tools, unavailable = agent.AllowedTools(all, prof.Tools) // as a run offers them
		} else {
			tools = app.EnabledTools(s.DB(), latestConversation(s), all)
		}
		fraction := agent.DefaultToolBudget
		if prof != nil && prof.ToolBudget > 0 {
			fraction = prof.ToolBudget
		}

		out := planJSON{Window: *window, WindowSource: "--context", Counted: "estimate"}
		count := agent.EstimateTokens
		if out.Window == 0 {
			out.Window, out.WindowSource = agent.DefaultContextWindow, "default"
			if client, model, err := resolveModel(ctx, g, s, prof); err != nil {
				out.ModelServerErr = err.Error()
			} else {
				if n, src, err := client.ContextWindow(ctx, model); err == nil && n > 0 {
					out.Window, out.WindowSource = n, src
				}
				if prof != nil {
					out.Window, out.WindowSource = app.EffectiveWindow(out.Window, out.WindowSource, *prof)
				}
				if _, exact := client.CountTokens(ctx, "probe"); exact {
					out.Counted = "server tokenizer"
					count = agent.CachedCount(func(text string) int { n, _ := client.CountTokens(ctx, text); return n })
				}
			}
		}
		snap, _ := app.LoadSnapshot(s.DB(), cwd)
		// Decided as a run decides: against the definitions served now (SPEC D8).
		rp := app.NewPolicy(s.DB(), cwd, nil)
		rp.SetServed(s.MCP().Manager())
		plan := agent.PlanTools(agent.PlanInput{Tools: tools, Window: out.Window, Fraction: fraction, AsksPerson: agent.AsksPersonFrom(rp.Decider(snap)),
			Count: count, Label: s.MCP().Label})
		out.Fraction, out.Budget, out.Sent, out.AllInline = fraction, plan.Budget, plan.SentTokens(), plan.AllInlineTokens
		out.MetaTokens, out.ListingTokens, out.Fits, out.Meta = plan.MetaTokens, plan.ListingTokens, plan.Fits, plan.Meta
		if plan.Err != nil {
			out.Error = plan.Err.Error()
		}
		if prof != nil {
			def, err := s.DB().Definition(prof.Definition, prof.DefinitionRevision)
			if err != nil {
				return err
			}
			out.Unavailable = unavailable
			for _, t := range agent.WorkflowTools(def, len(prof.Skills), count) {
				out.Workflow = append(out.Workflow, plannedJSON{t.Def.Identity, t.Wire, "vouch", t.Tokens, false})
				out.WorkflowTokens += t.Tokens
			}
		}
		for _, t := range plan.Inline {
			out.Inline = append(out.Inline, plannedJSON{t.Identity, t.Wire, t.Label, t.Tokens, t.Asks})
		}
		for _, t := range plan.Deferred {
			out.Deferred = append(out.Deferred, plannedJSON{t.Identity, t.Wire, t.Label, t.Tokens, t.Asks})
		}
		if *asJSON {
			return writeJSON(e.stdout, out)
		}
		return printPlan(e, out)
	})
}

func printPlan(e env, p planJSON) error {
	tw := newTable(e.stdout)
	pr := tw.Printf
	pr("window\t%d tokens (%s); tool budget %d (%.0f%%), counted by %s\n", p.Window, p.WindowSource, p.Budget, p.Fraction*100, p.Counted)
	if p.ModelServerErr != "" {
		pr("model server\t%s\n", safetext.Line(p.ModelServerErr, 120))
	}
	fits := "fits"
	if !p.Fits {
		fits = "does NOT fit"
	}
	pr("sent for tools\t%d tokens (everything inline would be %d) — %s\n", p.Sent, p.AllInline, fits)
	pr("inline (%d)\n", len(p.Inline))
	for _, t := range p.Inline {
		asks := ""
		if t.Asks {
			asks = "asks, stays inline"
		}
		pr("  %s\t%s\t%d\t%s\n", t.Wire, safetext.Line(t.Identity, 70), t.Tokens, asks)
	}
	if len(p.Deferred) > 0 {
		pr("deferred behind %v (%d, listing %d + meta-tools %d tokens)\n", p.Meta, len(p.Deferred), p.ListingTokens, p.MetaTokens)
		for _, t := range p.Deferred {
			pr("  %s\t%s\t%d\n", t.Wire, safetext.Line(t.Identity, 70), t.Tokens)
		}
	}
	if len(p.Workflow) > 0 {
		pr("added by the profile's run (%d, %d tokens; outside the budget, inside the window)\n", len(p.Workflow), p.WorkflowTokens)
		for _, t := range p.Workflow {
			pr("  %s\t%s\t%d\n", t.Wire, t.Identity, t.Tokens)
		}
	}
	if len(p.Unavailable) > 0 {
		pr("selected but not available now\t%s\n", safetext.Line(strings.Join(p.Unavailable, ", "), 120))
	}
	if p.Error != "" {
		pr("error\t%s\n", p.Error)
	}
	return tw.Flush("the plan")
}

// latestConversation is the conversation the TUI would open, or "".
func latestConversation(s *state) string {
	conv, ok, err := s.DB().LatestConversation()
	if err != nil || !ok {
		return ""
	}
	return conv.ID
}

// resolveModel finds the model server and model as a run would (of the
// profile, when one is given).
func resolveModel(ctx context.Context, g *globals, s *state, prof *workflow.Profile) (*agent.Client, string, error) {
	url := g.modelURL
	if url == "" {
		for _, ep := range agent.Probe(ctx, &http.Client{}, agent.DefaultEndpoints()) {
			if ep.Err == nil {
				url = ep.BaseURL
				break
			}
		}
		if url == "" {
			return nil, "", fmt.Errorf("%w; the plan uses the default window (pass --context or --model-url)", app.ErrNoServer)
		}
	}
	client := agent.NewClient(url, "", &http.Client{})
	model := g.model
	if prof != nil && prof.Model != "" {
		model = prof.Model
	}
	if model == "" {
		if m, ok, err := s.DB().Setting(app.SettingModel); err == nil && ok {
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
