package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"vouch/agent"

	"vouch/internal/panics"

	"vouch/mcpclient"
	"vouch/store"
	"vouch/tool"
)

// ErrWorkflowsOff is the sentence for a profile or scheduled run asked for
// while the Agent Workflows switch is off (SPEC H1).
var ErrWorkflowsOff = errors.New("the Agent Workflows switch is off, so profiles do not run; turn it on with 'vouch workflows on' or in Settings › Tools & Workflows")

// ProfileRunner starts profile runs: it freezes everything the run may use
// (SPEC H4, H5, D6), records the run with that frozen spec (H7), and hands
// the run to agent.Client.RunWorkflow. It is safe for concurrent use.
type ProfileRunner struct {
	db      *store.DB
	resolve Resolver
	// mcpTools returns the executable MCP tools from the cached catalogs,
	// with the effects of the run's frozen policy (nil: none).
	mcpTools func(effect mcpclient.EffectFunc) []tool.Tool
	// label names a tool's server.
	label func(identity string) string
	// cwd is the workspace of a profile that names none.
	cwd string
	// policy decides every call of a run on the snapshot the run froze —
	// automatic allows ask while the audit cannot be written, as in chat —
	// and audits each decision with the run's ID (SPEC D6, H7).
	policy *Policy
	limits agent.Limits
	// onErr receives history write failures.
	onErr func(error)
	// serverSkills loads the skills MCP servers serve (nil: none can be
	// enabled); see profile_skills.go.
	serverSkills *mcpclient.SkillService
}

// Resolver returns the model client and the model a run uses: model, or
// the chat's current model when model is "" — resolving the model server
// (and the model) as the chat does.
type Resolver func(ctx context.Context, model string) (*agent.Client, string, error)

// ProfileRunner returns the runner of profile runs on this session, with
// resolve finding the model server and model.
func (a *App) ProfileRunner(resolve Resolver) *ProfileRunner {
	return &ProfileRunner{
		db:       a.db,
		resolve:  resolve,
		mcpTools: func(effect mcpclient.EffectFunc) []tool.Tool { return a.mcp.mgr.AgentTools(effect) },
		label:    a.mcp.Label,
		cwd:      a.policy.Workspace(),
		policy:   a.policy,
		limits:   agent.DefaultLimits(),
		onErr:    a.history.Report,
		// Without a skill service no server skill loads, and a profile
		// enabling one is refused in a sentence.
		serverSkills: a.serverSkillService(),
	}
}

// SetMCPTools replaces where a run's MCP tools come from (by default the
// session's cached catalogs, with the effects of the run's frozen
// policy). Tests hand in a tool of their own here; the runner, the
// scheduler and the backend stay the product's.
func (pr *ProfileRunner) SetMCPTools(fn func(effect mcpclient.EffectFunc) []tool.Tool) {
	pr.mcpTools = fn
}

// ProfileRun is one started profile run.
type ProfileRun struct {
	ID     string
	Spec   FrozenSpec
	Events <-chan agent.Event
	rec    *RunRecorder
	cancel context.CancelFunc
}

// Stop ends the run with outcome (e.g. waiting-approval) and reason.
func (r *ProfileRun) Stop(outcome store.RunOutcome, reason string) {
	r.rec.Stop(outcome, reason)
	r.cancel()
}

// Start freezes profile name's latest revision and starts task on it as a
// run of kind. The run goes on in the background; Events delivers its
// events and is closed after Done.
//
// A panic while it starts (resolving the model server, the catalogs, the
// policy) is recorded as a failed run with its stack and returned as the
// error; one inside the run ends that run failed (see run_guard.go).
func (pr *ProfileRunner) Start(ctx context.Context, name, task string, kind store.RunKind) (_ *ProfileRun, err error) {
	recID := "" // set once the run's record exists
	defer panics.Recover("the run", "starting the profile run", func(e *panics.InternalError) {
		_, err = recordInternal(pr.db, pr.fail, recID, store.RunRecord{Kind: kind, Profile: name, Task: task}, e)
	})
	on, err := pr.db.WorkflowsEnabled()
	if err != nil {
		return nil, err
	}
	if !on {
		return nil, Wrap(Failure, ErrWorkflowsOff)
	}
	p, err := pr.db.Profile(name, 0)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Errorf(Usage, "no profile is named %q; 'vouch profile list' shows them", name)
	} else if err != nil {
		return nil, err
	}
	def, err := pr.db.Definition(p.Definition, p.DefinitionRevision)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Errorf(Failure, "profile %q uses definition %q, which no longer exists; add it again or change the profile with 'vouch profile edit %s --definition D'", p.Name, p.Definition, p.Name)
	} else if err != nil {
		return nil, err
	}
	frozen, err := pr.freezeProfileSkills(ctx, p)
	skills, skillRecs := frozen.run, frozen.recs
	if errors.Is(err, errSkillMissing) {
		return nil, Errorf(Failure, "profile %q enables a %v; install it again or change the profile with 'vouch profile edit %s --skill ...'", p.Name, err, p.Name)
	} else if err != nil {
		return nil, err
	}
	dir := p.Workspace
	if dir == "" {
		dir = pr.cwd
	}
	ws, err := agent.OpenWorkspace(dir)
	if err != nil {
		return nil, Errorf(Failure, "profile %q cannot open its workspace %s (%v); fix it with 'vouch profile edit %s --workspace DIR'", p.Name, dir, err, p.Name)
	}
	started := false
	defer func() {
		if !started {
			_ = ws.Close()
		}
	}()
	// The digest history keeps is that of the snapshot the run decides
	// with, from the same read (an unreadable policy: every call asks).
	snap, digest, _ := loadPolicy(pr.db, dir)
	client, model, err := pr.resolve(ctx, p.Model)
	if err != nil {
		return nil, Wrap(Unavailable, err)
	}
	window, source, err := client.ContextWindow(ctx, model)
	if err != nil {
		window, source = 0, agent.WindowFromDefault
	}
	window, source = EffectiveWindow(window, source, p)
	if window <= 0 {
		window, source = agent.DefaultContextWindow, agent.WindowFromDefault
	}

	// The allowlist: of every tool available now, those the profile
	// selected. Selected tools that are not available (a server is down,
	// a tool left its catalog) are recorded as such.
	available := append(ws.Tools(), ws.WriteTools()...)
	if pr.mcpTools != nil {
		available = append(available, pr.mcpTools(func(id, def string) mcpclient.Effect { return MCPEffect(snap.Effect(id, def)) })...)
	}
	offered, missing := agent.AllowedTools(available, p.Tools)
	ids := make([]string, len(offered))
	for i, t := range offered {
		ids[i] = t.Def().Identity
	}
	spec := FrozenSpec{Profile: p.Name, ProfileRevision: p.Revision, Definition: def.Name, DefinitionRevision: def.Revision,
		DefinitionKind: string(def.Kind), Model: model, ContextWindow: window, WindowSource: source, Temperature: p.Temperature,
		ToolBudget: p.ToolBudget, Workspace: absDir(dir), Skills: skillRecs, Policy: digest, Limits: limitsWithDefaults(pr.limits),
		SkillBytesPerCall: agent.DefaultSkillBytesPerCall, SkillBytesPerRun: agent.DefaultSkillBytesPerRun, Precedence: frozen.precedence}
	if spec.ToolBudget == 0 {
		spec.ToolBudget = agent.DefaultToolBudget
	}
	spec.Unavailable = missing
	wire, err := tool.WireNames(ids)
	if err != nil {
		return nil, fmt.Errorf("name the profile's tools: %w", err)
	}
	for w, id := range wire {
		spec.Tools = append(spec.Tools, FrozenTool{Identity: id, WireName: w})
	}
	sortTools(spec.Tools)
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("encode the frozen spec: %w", err)
	}
	rec, err := pr.db.CreateRun(store.RunRecord{Kind: kind, Profile: p.Name, ProfileRevision: p.Revision,
		Definition: def.Name, DefinitionRevision: def.Revision, Spec: raw, Task: task})
	if err != nil {
		return nil, err
	}
	recID = rec.ID
	if len(spec.Unavailable) > 0 {
		pr.fail(pr.db.AppendRunEvents(rec.ID, store.RunEvent{Kind: store.EventNote,
			Text: fmt.Sprintf("not available, so not offered: %v", spec.Unavailable)}))
	}

	ctx, cancel := context.WithCancel(ctx)
	// A server's question is one of the run's events (SPEC B12,
	// agent.InputRequested): its follower answers it — the terminal, or a
	// decline.
	raw2 := make(chan agent.Event, 64)
	rs := agent.RunSpec{Model: model, ContextWindow: window, WindowSource: source, SystemPrompt: SystemPrompt,
		History: []agent.Message{{Role: agent.RoleUser, Content: task, Created: time.Now()}},
		Tools:   offered, ToolBudget: p.ToolBudget, ToolLabel: pr.label, Decide: pr.policy.Decider(snap), Audit: pr.policy.AuditRun(rec.ID), Limits: pr.limits}
	if p.Temperature != nil {
		temp := *p.Temperature // the run's own copy (SPEC D6)
		rs.Temperature = &temp
	}
	wspec := agent.WorkflowSpec{Profile: p.Name, ProfileRevision: p.Revision, Definition: def, Skills: skills, Blobs: frozen.blobs, Precedence: frozen.precedence}
	go func() {
		defer close(raw2)
		defer func() { _ = ws.Close() }()
		// RunWorkflow recovers its own panics; this is the last resort of
		// the run's goroutine: the run ends failed, the process goes on.
		defer panics.Recover("the run", "vouch's profile runner", func(e *panics.InternalError) {
			select {
			case raw2 <- agent.Done{Reason: agent.StopError, Err: e}:
			case <-time.After(followGrace):
			}
		})
		_ = client.RunWorkflow(ctx, rs, wspec, raw2) // the error is the Done the recorder keeps
	}()
	started = true
	rr := &RunRecorder{db: pr.db, onErr: pr.onErr, rec: rec}
	return &ProfileRun{ID: rec.ID, Spec: spec, Events: rr.Follow(ctx, raw2), rec: rr, cancel: cancel}, nil
}

func (pr *ProfileRunner) fail(err error) {
	if err != nil && pr.onErr != nil {
		pr.onErr(fmt.Errorf("run history: %w", err))
	}
}

func sortTools(ts []FrozenTool) {
	sort.Slice(ts, func(i, j int) bool { return ts[i].Identity < ts[j].Identity })
}

// limitsWithDefaults fills the zero fields of l as the run will.
func limitsWithDefaults(l agent.Limits) agent.Limits {
	d := agent.DefaultLimits()
	for _, f := range []struct{ v, d *int }{{&l.MaxTurns, &d.MaxTurns}, {&l.MaxToolCalls, &d.MaxToolCalls},
		{&l.MaxResultBytesPerCall, &d.MaxResultBytesPerCall}, {&l.MaxResultBytesPerRun, &d.MaxResultBytesPerRun}} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return l
}

// absDir is dir made absolute where possible.
func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
