// Package workflows owns Settings › Tools & Workflows › Workflows (SPEC
// H1, H6, L2): the per-device Agent Workflows switch, which moves only
// once the backend has answered, and every profile's schedule with the
// sentence that schedules are not a server ([SchedulesNote], which the
// command line prints too). [Backend] is the narrow interface it needs;
// the root finds it on its Backend by type assertion, and without it the
// page says Agent Workflows is not available.
//
// # Boundaries
//
// workflows imports tui/kit and tui/settings only, never the root or
// another page. Its Cmds call the Backend with a bounded context and
// return typed messages; Update and View do no I/O. Like every package
// under tui it imports neither bbolt, net/http, a keyring package nor
// vouch/store (internal/archtest).
package workflows
