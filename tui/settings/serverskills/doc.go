// Package serverskills owns the skills an MCP server serves, as the MCP
// Servers page shows them (SPEC I1, I3-I6): the listing of one active
// server's skills ([List]), asked for only when the person opens it, and a
// skill's approval preview ([Approval]), whose keys follow the skill's
// state — approve, accept a change, keep the pinned version, roll back —
// and which settles before a granting key acts (SPEC D7, the root's
// kit.Granter rule). A skill with high-severity scanner findings not yet
// reviewed is approved only through a second confirmation that names
// their IDs, settles afresh, and passes exactly those IDs to the Backend
// (SPEC G8, I5). [Backend] is the narrow interface it needs; the root
// finds it on its Servers by type assertion and hands the servers page the
// function that opens [New].
//
// # Boundaries
//
// serverskills imports tui/kit and tui/settings (for the server view)
// only, never the root or another page. Its Cmds call the Backend with a
// bounded context and return typed messages; Update and View do no I/O.
// Like every package under tui it imports neither bbolt, net/http, a
// keyring package nor vouch/store (internal/archtest).
package serverskills
