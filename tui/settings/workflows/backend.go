package workflows

import (
	"context"
	"time"
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

// Schedule is one profile's schedule as the Workflows page lists it.
type Schedule struct {
	Profile string
	// Spec is the schedule in words, e.g. "every 1h" or "cron 0 9 * * 1-5".
	Spec string
	Task string
	// Next is when it fires next if vouch is running then (zero: not
	// planned, for instance while paused).
	Next time.Time
	// Paused, when not empty, says why it does not fire now, e.g. "Agent
	// Workflows is off".
	Paused string
	// Last is the last tick's outcome in a few words, including a missed or
	// skipped run and its reason ("missed: vouch was not running");
	// LastAt is when (zero: never fired).
	Last   string
	LastAt time.Time
}
