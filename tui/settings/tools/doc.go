// Package tools owns the tool selection list: every cached tool, grouped
// by server, each with a switch, filtered as one types (issue 3; SPEC D2,
// D8, F1). Over [Conversation] it is the Tools page of Settings › Tools &
// Workflows, and a switch turns a tool on or off for this conversation
// through [Catalog]; over another [Source] — a profile's allowlist — it is
// the list the profile's tool selection shows.
//
// # Boundaries
//
// tools is a component as much as a page: the profiles page embeds it
// over its own Source, which answers with [ListedMsg] and [ToggledMsg] of
// its Scope. So tools imports only tui/kit and tui/settings (the frame and
// the server and tool views), never the root or another page; the
// profiles page may import it (internal/archtest lists it as a shared
// component). Its Cmds call the Catalog with a bounded context; Update and
// View do no I/O. Like every package under tui it imports neither bbolt,
// net/http, a keyring package nor vouch/store.
package tools
