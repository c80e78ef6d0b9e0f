package tui

import (
	"context"
	"fmt"

	"vouch/tui/kit"

	tea "github.com/charmbracelet/bubbletea"
)

// The Cmds of Settings › Skills and the install preview. Like cmds.go,
// each captures copies of its inputs, calls the SkillCatalog inside the
// closure with a bounded context and returns a typed message (STYLE habits
// 5 and 6).

// skillsMsg carries ListSkills for the load numbered seq.
type skillsMsg struct {
	seq    int
	skills []SkillSummary
	err    error
}

// skillPreviewMsg carries PreviewSkill for the preview numbered seq.
type skillPreviewMsg struct {
	seq     int
	preview SkillPreview
	err     error
}

// skillInstalledMsg carries InstallSkill. The install preview handles it;
// on success it closes and hands it to the Skills page below, which
// reloads.
type skillInstalledMsg struct {
	skill SkillSummary
	err   error
}

// skillRemovedMsg carries RemoveSkill.
type skillRemovedMsg struct {
	name string
	err  error
}

// skillCatalog returns the Backend as a SkillCatalog, or nil when it does
// not implement the interface.
func (m Model) skillCatalog() SkillCatalog {
	if sc, ok := m.backend.(SkillCatalog); ok {
		return sc
	}
	return nil
}

func loadSkills(sc SkillCatalog, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		skills, err := sc.ListSkills(ctx)
		if err != nil {
			err = fmt.Errorf("could not load the skills: %w", err)
		}
		return skillsMsg{seq: seq, skills: skills, err: err}
	}
}

func previewSkill(sc SkillCatalog, seq int, path string, opts SkillInstallOptions) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		p, err := sc.PreviewSkill(ctx, path, opts)
		return skillPreviewMsg{seq: seq, preview: p, err: err}
	}
}

func installSkill(sc SkillCatalog, path string, opts SkillInstallOptions) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		s, err := sc.InstallSkill(ctx, path, opts)
		if err != nil {
			err = fmt.Errorf("nothing was installed: %w", err)
		}
		return skillInstalledMsg{skill: s, err: err}
	}
}

func removeSkill(sc SkillCatalog, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := sc.RemoveSkill(ctx, name)
		if err != nil {
			err = fmt.Errorf("could not remove the skill: %w", err)
		}
		return skillRemovedMsg{name: name, err: err}
	}
}
