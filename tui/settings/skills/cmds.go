package skills

import (
	"context"
	"fmt"

	"vouch/tui/kit"

	tea "github.com/charmbracelet/bubbletea"
)

// The Cmds of Settings › Skills and the install preview. Like cmds.go,
// each captures copies of its inputs, calls the Catalog inside the
// closure with a bounded context and returns a typed message (STYLE habits
// 5 and 6).

// ListedMsg carries ListSkills for the load numbered seq.
type ListedMsg struct {
	seq    int
	skills []Summary
	err    error
}

// PreviewMsg carries PreviewSkill for the preview numbered seq.
type PreviewMsg struct {
	seq     int
	preview Preview
	err     error
}

// InstalledMsg carries InstallSkill. The install preview handles it;
// on success it closes and hands it to the Skills page below, which
// reloads.
type InstalledMsg struct {
	skill Summary
	err   error
}

// RemovedMsg carries RemoveSkill.
type RemovedMsg struct {
	name string
	err  error
}

func loadSkills(sc Catalog, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		skills, err := sc.ListSkills(ctx)
		if err != nil {
			err = fmt.Errorf("could not load the skills: %w", err)
		}
		return ListedMsg{seq: seq, skills: skills, err: err}
	}
}

func previewSkill(sc Catalog, seq int, path string, opts InstallOptions) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		p, err := sc.PreviewSkill(ctx, path, opts)
		return PreviewMsg{seq: seq, preview: p, err: err}
	}
}

func installSkill(sc Catalog, path string, opts InstallOptions) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		s, err := sc.InstallSkill(ctx, path, opts)
		if err != nil {
			err = fmt.Errorf("nothing was installed: %w", err)
		}
		return InstalledMsg{skill: s, err: err}
	}
}

func removeSkill(sc Catalog, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := sc.RemoveSkill(ctx, name)
		if err != nil {
			err = fmt.Errorf("could not remove the skill: %w", err)
		}
		return RemovedMsg{name: name, err: err}
	}
}
