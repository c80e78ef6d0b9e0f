package workflows

import (
	"context"

	"vouch/internal/view"
)

// Backend is the Agent Workflows switch and the schedules it governs
// (SPEC H1, H6): Settings › Tools & Workflows › Workflows.
type Backend interface {
	// WorkflowsEnabled reports the per-device switch.
	WorkflowsEnabled(ctx context.Context) (bool, error)
	// SetWorkflowsEnabled turns the switch. Off stops new workflow activity
	// (no new runs, schedules paused, MCP tools and skills not offered) and
	// deletes nothing; on restores everything as it was (SPEC H1).
	SetWorkflowsEnabled(ctx context.Context, on bool) error
	// Schedules lists every profile's schedule, by profile name.
	Schedules(ctx context.Context) ([]Schedule, error)
}

// Schedule is view.Schedule (internal/view), as the application returns it.
type Schedule = view.Schedule
