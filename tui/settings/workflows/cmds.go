package workflows

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// LoadedMsg carries the switch and the schedules for load seq.
type LoadedMsg struct {
	seq       int
	on        bool
	schedules []Schedule
	err       error
}

// SetMsg carries SetWorkflowsEnabled.
type SetMsg struct {
	on  bool
	err error
}

func loadWorkflows(w Backend, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		on, err := w.WorkflowsEnabled(ctx)
		if err != nil {
			return LoadedMsg{seq: seq, err: fmt.Errorf("could not read the Agent Workflows switch: %w", err)}
		}
		sch, err := w.Schedules(ctx)
		if err != nil {
			return LoadedMsg{seq: seq, on: on, err: fmt.Errorf("could not list the schedules: %w", err)}
		}
		return LoadedMsg{seq: seq, on: on, schedules: sch}
	}
}

func setWorkflows(w Backend, on bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := w.SetWorkflowsEnabled(ctx, on)
		if err != nil {
			verb := "turn on"
			if !on {
				verb = "turn off"
			}
			err = fmt.Errorf("could not %s Agent Workflows: %w", verb, err)
		}
		return SetMsg{on: on, err: err}
	}
}
