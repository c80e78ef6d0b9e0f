// Package profiles owns Settings › Tools & Workflows › Profiles (SPEC H2,
// H6, H7, L2): the list of Agent Profiles ([List]) and the panes it opens
// above Settings — the profile editor ([Editor]: a definition picker,
// model defaults, workspace, skills enabled in prompt order and a
// schedule, the form checked first with each refusal one sentence on the
// field to fix), the per-profile tool selection ([ToolsPane]: the Tools
// page's list over the profile's allowlist), the "run now" prompt, and the
// remove confirmation. [Backend] is the narrow interface it needs, with
// the view types a backend fills in; a Backend that is also a [Runner]
// lets g start a profile now.
//
// # Boundaries
//
// profiles imports tui/kit, tui/settings and the shared tool selection
// list tui/settings/tools, never the root or another page. Its Cmds call
// the Backend with a bounded context and return typed messages; Update and
// View do no I/O. Like every package under tui it imports neither bbolt,
// net/http, a keyring package nor vouch/store (internal/archtest).
package profiles
