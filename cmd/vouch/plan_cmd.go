package main

import (
	"context"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/safetext"
)

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
	cwd, err := e.workdir()
	if err != nil {
		return err
	}
	return withState(ctx, g, e, func(s *state) error {
		out, err := s.PlanTools(ctx, app.PlanOptions{Dir: cwd, Window: *window, Profile: *profileName, ModelURL: g.modelURL, Model: g.model,
			Warm: func(ctx context.Context) { s.MCP().WarmBriefly(ctx) }})
		if err != nil {
			return err
		}
		if *asJSON {
			return clitext.WriteJSON(e.stdout, out)
		}
		return printPlan(e, out)
	})
}

func printPlan(e env, p app.ToolPlan) error {
	tw := clitext.NewTable(e.stdout)
	pr := tw.Printf
	pr("window\t%d tokens (%s); tool budget %d (%.0f%%), counted by %s\n", p.Window, p.WindowSource, p.Budget, p.Fraction*100, p.Counted)
	if p.ModelServerErr != "" {
		pr("model server\t%s\n", safetext.Line(p.ModelServerErr, 120))
	}
	if p.Note != "" {
		pr("note\t%s\n", safetext.Line(p.Note, 120))
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
