// Package tuiwire owns the adapter between the application and the
// terminal interface: the mapping of internal/app's types to the view types
// the tui's pane families declare, and the composition of the tui.Backend
// and tui.Options over one session.
//
// # What it owns
//
// Backend (backend.go) is the root's tui.Backend: it embeds app.Chat and
// app.PolicyEditor, serves the Skills page over localskills, and embeds
// Workflows (workflows.go), which serves the Agent Workflows switch and
// schedules, the Profiles page, the run history and the approvals inbox.
// Servers (servers.go, server_skills.go) serves the MCP Servers and Tools
// pages and a server's skills, neutralising every server-given string;
// its WaitServers (servers_watch.go) lets the MCP Servers page follow the
// servers while it is shown, reading the manager's cached state again
// each time the manager announces a change (mcpclient.Manager.Changed).
// apps.go converts the MCP Apps host's events into the tui's. Start
// (interface.go) composes all of it with the scheduler and the MCP Apps
// host, as `vouch` and `vouch demo` run it; SkillPreview is the one
// conversion the command line shares (`vouch skill preview` prints the
// Skills page's preview).
//
// Each method runs inside a tea.Cmd and only converts: the services and
// their rules live in internal/app, the panes and their keys in tui.
//
// # What it must not import
//
// It imports internal/app and the tui packages, because it is the one
// place that knows both; internal/app imports no tui, and no tui package
// imports internal/app or this package. Only cmd/vouch imports it
// (the lattice in internal/archtest). It never exits or prints.
package tuiwire
