package tuiwire

import (
	"vouch/internal/app"
	"vouch/tui"
)

// The MCP Apps host lives in internal/app; the terminal interface reads
// its events as its own (tui.AppHost), converted here.
var _ tui.AppHost = (*app.AppsService[tui.AppEvent])(nil)

// newApps starts the MCP Apps host of the terminal interface on s;
// version is vouch's, as MCP servers are told it.
func newApps(s *app.App, version string, getenv func(string) string) *app.AppsService[tui.AppEvent] {
	return app.NewAppsService(s.MCP().Manager(), s.Policy(), version, getenv, tuiAppEvent)
}

// tuiAppEvent is an app event as the terminal interface reads it: the
// same value (internal/view).
func tuiAppEvent(ev app.AppEvent) tui.AppEvent { return ev }
