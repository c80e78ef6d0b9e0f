package tuiwire

import (
	"context"

	"vouch/internal/app"
	"vouch/tui"
)

// Interface is the terminal interface composed over a session: the
// Backend with the Agent Workflows panes and the approvals inbox, the
// Options that carry the MCP servers pane and the MCP Apps host, and the
// scheduler, which fires schedules only while the interface runs (SPEC
// H6). cmd/vouch runs the program on Backend and Options, then calls Stop.
type Interface struct {
	Backend *Backend
	Options tui.Options
	bg      app.Background
}

// Start composes the interface over s with the chat on cfg and opts as
// the caller set them; version is vouch's, as MCP servers are told it.
// `vouch` and `vouch demo` both start here.
func Start(ctx context.Context, s *app.App, cfg app.ChatConfig, opts tui.Options, version string, getenv func(string) string) *Interface {
	ib := app.NewInbox()
	wf := NewWorkflows(s, ib)
	b := NewBackend(cfg, wf)
	b.UseSession(s) // the conversation list (SPEC L5)
	// The profile runs the person starts from the Profiles page run on the
	// scheduler's terms; Stop waits for them and closes ib.
	bg := s.StartScheduler(ctx, s.ProfileRunner(b.Resolver()), ib)
	wf.SetRunNow(bg.RunNow)
	wf.SetRunEnds(bg.Ends) // notified by the interface (SPEC L4)
	apps := newApps(s, version, getenv)
	s.SetApps(apps)
	opts.Servers, opts.Apps = NewServers(s), apps
	return &Interface{Backend: b, Options: opts, bg: bg}
}

// Stop stops the scheduler, waiting for the profile runs it started, and
// closes the inbox.
func (i *Interface) Stop() { i.bg.Stop() }
