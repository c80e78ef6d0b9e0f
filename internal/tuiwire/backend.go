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
		PolicyEditor: cfg.PolicyEditor(time.Now),
		skills:       cfg.SkillCatalog(localskills.Import),
		Workflows:    wf,
	}
}

// Info implements tui.StatusSource.
func (b *Backend) Info(ctx context.Context) (tui.BackendInfo, error) {
	return b.Chat.Info(ctx)
}

// DescribeTool implements tuiapproval.ToolDescriber.
func (b *Backend) DescribeTool(ctx context.Context, identity string) (tuiapproval.ToolDescription, error) {
	return b.Chat.DescribeTool(ctx, identity)
}

// WaitToolChange implements tuiapproval.ToolWatcher.
func (b *Backend) WaitToolChange(ctx context.Context, identity, digest string) (tuiapproval.ToolDescription, error) {
	if b.session == nil {
		<-ctx.Done()
		return tuiapproval.ToolDescription{}, ctx.Err()
	}
	return b.session.WaitToolChange(ctx, identity, digest)
}

// ListSkills implements tuiskills.Catalog.
func (b *Backend) ListSkills(ctx context.Context) ([]tuiskills.Summary, error) {
	return b.skills.ListSkills(ctx)
}

// PreviewSkill implements tuiskills.Catalog.
func (b *Backend) PreviewSkill(ctx context.Context, path string, opts tuiskills.InstallOptions) (tuiskills.Preview, error) {
	return b.skills.PreviewSkill(ctx, path, opts)
}

// InstallSkill implements tuiskills.Catalog.
func (b *Backend) InstallSkill(ctx context.Context, path string, opts tuiskills.InstallOptions) (tuiskills.Summary, error) {
	return b.skills.InstallSkill(ctx, path, opts)
}

// RemoveSkill implements tuiskills.Catalog.
func (b *Backend) RemoveSkill(ctx context.Context, name string) error {
	return b.skills.RemoveSkill(ctx, name)
}

// SkillPreviewLines is p as the interface and 'vouch skill preview' show
// it, width cells wide, the instructions folded to instructionLines.
func SkillPreviewLines(p localskills.Preview, width, instructionLines int) []string {
	return tuiskills.PreviewLines(p, width, instructionLines)
}
