package tuiwire

import (
	"context"
	"time"

	"vouch/internal/app"
	"vouch/internal/app/localskills"
	"vouch/tui"
	tuiapproval "vouch/tui/approval"
	tuipolicy "vouch/tui/settings/policy"
	tuiskills "vouch/tui/settings/skills"
)

// Backend adapts the application's services to the terminal interface:
// the chat (app.Chat), the policy editor, the skill catalog and the Agent
// Workflows panes, converting app types into the tui's view types. Its
// methods run inside tea.Cmds, never in Update or View.
type Backend struct {
	*app.Chat
	*app.PolicyEditor
	skills *localskills.Catalog
	// The Agent Workflows capabilities (tui.Workflows, Profiles,
	// RunHistory, Inbox); nil-safe.
	*Workflows
	// session backs the conversation list (conversations.go); nil: none.
	session *app.App
}

var (
	_ tui.Backend               = (*Backend)(nil)
	_ tuiapproval.ToolDescriber = (*Backend)(nil)
	_ tui.Conversations         = (*Backend)(nil)
	_ tuipolicy.Editor          = (*Backend)(nil)
	_ tuiskills.Catalog         = (*Backend)(nil)
)

// NewBackend wires the interface's backend from cfg; wf serves the Agent
// Workflows panes (nil: none).
func NewBackend(cfg app.ChatConfig, wf *Workflows) *Backend {
	return &Backend{
		Chat:         app.NewChat(cfg),
		PolicyEditor: app.NewPolicyEditor(cfg.DB, time.Now),
		skills:       localskills.NewCatalog(cfg.DB, localskills.Import),
		Workflows:    wf,
	}
}

// Info implements tui.StatusSource.
func (b *Backend) Info(ctx context.Context) (tui.BackendInfo, error) {
	info, err := b.Chat.Info(ctx)
	return tui.BackendInfo(info), err
}

// DescribeTool implements tuiapproval.ToolDescriber.
func (b *Backend) DescribeTool(ctx context.Context, identity string) (tuiapproval.ToolDescription, error) {
	d, err := b.Chat.DescribeTool(ctx, identity)
	return tuiapproval.ToolDescription(d), err
}

// WaitToolChange implements tuiapproval.ToolWatcher.
func (b *Backend) WaitToolChange(ctx context.Context, identity, digest string) (tuiapproval.ToolDescription, error) {
	if b.session == nil {
		<-ctx.Done()
		return tuiapproval.ToolDescription{}, ctx.Err()
	}
	d, err := b.session.WaitToolChange(ctx, identity, digest)
	return tuiapproval.ToolDescription(d), err
}

// ListSkills implements tuiskills.Catalog.
func (b *Backend) ListSkills(ctx context.Context) ([]tuiskills.Summary, error) {
	list, err := b.skills.ListSkills(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]tuiskills.Summary, len(list))
	for i, s := range list {
		out[i] = tuiskills.Summary(s)
	}
	return out, nil
}

// PreviewSkill implements tuiskills.Catalog.
func (b *Backend) PreviewSkill(ctx context.Context, path string, opts tuiskills.InstallOptions) (tuiskills.Preview, error) {
	p, err := b.skills.PreviewSkill(ctx, path, localskills.InstallOptions(opts))
	if err != nil {
		return tuiskills.Preview{}, err
	}
	return SkillPreview(p), nil
}

// InstallSkill implements tuiskills.Catalog.
func (b *Backend) InstallSkill(ctx context.Context, path string, opts tuiskills.InstallOptions) (tuiskills.Summary, error) {
	s, err := b.skills.InstallSkill(ctx, path, localskills.InstallOptions(opts))
	return tuiskills.Summary(s), err
}

// RemoveSkill implements tuiskills.Catalog.
func (b *Backend) RemoveSkill(ctx context.Context, name string) error {
	return b.skills.RemoveSkill(ctx, name)
}

// SkillPreview is p as the interface and 'vouch skill preview' show it.
func SkillPreview(p localskills.Preview) tuiskills.Preview {
	out := tuiskills.Preview{
		Source: p.Source, Name: p.Name, InstallName: p.InstallName, InstallVersion: p.InstallVersion, PackageVersion: p.PackageVersion,
		SHA256: p.SHA256, Description: p.Description, License: p.License, Compatibility: p.Compatibility, Instructions: p.Instructions,
		Files: convert(p.Files, func(f localskills.PreviewFile) tuiskills.PreviewFile { return tuiskills.PreviewFile(f) }), Resources: p.Resources,
		Excluded: convert(p.Excluded, func(e localskills.PreviewExcluded) tuiskills.PreviewExcluded { return tuiskills.PreviewExcluded(e) }),
		Definitions: convert(p.Definitions, func(d localskills.PreviewDefinition) tuiskills.PreviewDefinition {
			return tuiskills.PreviewDefinition(d)
		}),
		RequestedTools: p.RequestedTools,
		Findings:       convert(p.Findings, func(f localskills.PreviewFinding) tuiskills.PreviewFinding { return tuiskills.PreviewFinding(f) }),
		Warnings:       p.Warnings,
		Conflicts:      convert(p.Conflicts, func(c localskills.Conflict) tuiskills.Conflict { return tuiskills.Conflict(c) }),
		MustAccept:     p.MustAccept,
	}
	return out
}

// convert maps each element of in with fn; nil stays nil and empty stays
// empty, so JSON output keeps its [] and null.
func convert[A, B any](in []A, fn func(A) B) []B {
	if in == nil {
		return nil
	}
	out := make([]B, len(in))
	for i, a := range in {
		out[i] = fn(a)
	}
	return out
}
