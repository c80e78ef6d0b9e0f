// Package mcpclient owns vouch's connections to remote MCP servers over
// Streamable HTTP: server configuration and its validation, the connection
// test, the tool catalog cache and its background warming, stable tool
// identities and per-execution wire names, tool calls with session recovery,
// and the conversion of results into bounded, inert text (SPEC B, C, E).
// Skills served by servers (the Skills extension) live here too: see
// "Skills" below. MCP Apps resources live in ui.go and apps/.
//
// # Servers
//
// A ServerConfig is a name, an https endpoint (plain http only for
// loopback) and optionally the name of one secret header (SPEC B1). Its ID
// is a UUID that never changes; the secret's value lives in the OS keyring
// under that ID and reaches this package only through a SecretSource, or as
// the argument of Test. stdio commands and OAuth are reported unsupported
// (SPEC B4): Validate rejects commands and paths, and a 401 carrying an
// authorization challenge fails with ErrOAuthUnsupported, with no OAuth
// flow, no listener and nothing stored.
//
// Test connects, reports the protocol era, server, capabilities and tools
// (with the invalid ones and why), and closes; it activates and stores
// nothing (SPEC B2). Activation is Manager.SetActive.
//
// Both protocol eras are spoken (SPEC B8). mcp-go's Client performs the
// handshake: server/discover for the stateless 2026-07-28 revision, falling
// back to initialize and a session. Requests then go through its transport
// as raw JSON-RPC, so that tool lists and results reach this package
// unparsed and are validated item by item: one malformed tool or content
// item is rejected on its own instead of failing the whole answer.
//
// # A secret the server echoes back
//
// A careless or hostile server may reflect the secret header it was sent
// into what it answers: its serverInfo, a tool's title or description, a
// result, an error message (SPEC B1; issue 14 item 4). The secret is
// therefore redacted at the boundary, in the connection itself
// (redact.go), before anything parses, caches, stores, shows or sends to
// the model what the server said: every JSON-RPC result (redactRaw, each
// string and key of the decoded value, so \uXXXX escapes cannot hide it;
// a result without the secret is kept byte for byte), every JSON-RPC
// error message and error sentence (redact), progress messages, the
// initialize answer's serverInfo (redactInfo: name, title, version,
// description, website) and the HTTP debug log. What is removed is the
// whole configured header value and, for a "Bearer xyz"-style value, its
// token part alone when it is at least 8 bytes; each becomes "[secret]".
// Redacting here, once, rather than at each screen, is what keeps it out
// of the catalog cache in the database, `vouch server test`, the panes and
// the model's context alike. The server's instructions are not read.
// Only the server's own secret is known here: a different credential it
// returns is ordinary (neutralized) text.
//
// A credential in the endpoint URL itself — userinfo, or a query
// parameter such as api_key, token, access_token or secret — is refused
// by Validate (config_query.go), since a URL is stored and shown; the
// sentence says to use the secret header.
//
// # Identities and wire names
//
// Every tool has the identity "mcp:<serverUUID>:<toolName>" (SPEC C1).
// WireNames/NewWireMap freeze, per execution, a name the model sees:
// "mcp_" plus the tool name when that is legal, short and unambiguous, else
// a sanitized, truncated name with a 12-hex-digit hash of the identity. The
// names depend only on the set of identities, so runs are reproducible; a
// wire name not in the map is ErrUnknownWireName, never a guess (SPEC C2,
// C3).
//
// # Catalog and warming
//
// The Manager keeps, per server, the last Catalog (stored through a
// CatalogStore with its fetch time) and a Status: inactive, connecting,
// connected, stale, locked, error or unsupported. Start loads stored
// catalogs and warms active servers in the background, at most
// Options.Concurrency at a time, each within Options.Timeout (SPEC B5).
// Warming never prompts for a secret: a secret that needs the person marks
// the server locked and keeps its catalog (SPEC B6). A server that cannot be
// reached keeps its catalog, marked stale. notifications/tools/list_changed
// triggers a refresh: on a modern connection through an acknowledged
// subscriptions/listen stream, on a legacy one through the GET stream
// (SPEC B8). Only tools of active, connected servers are Executable.
// Refreshes of one server may overlap (activation, list_changed, a
// bounded warm); an answered tools/list is applied unless a newer
// refresh's catalog is in place, and a refresh whose caller gave up
// records nothing and leaves the live connection alone
// (refresh_order.go).
//
// Tool descriptions are neutralized and capped at 1 KiB; schemas must be
// objects of type "object", at most 64 KiB, 32 levels and 1,000 properties,
// with local, acyclic $refs; duplicated names reject every copy (SPEC B3,
// F1).
//
// # Calls and results
//
// Manager.Call (and the tool.Tool adapter from AgentTool/AgentTools) sends
// one tools/call with a timeout (CallOptions.Timeout, else the server's
// ServerConfig.CallTimeout, else Options.CallTimeout) and the caller's
// context. Each call carries a progressToken; its notifications/progress
// reach CallOptions.OnProgress or the ProgressFunc that WithProgress put on
// the context, and a call abandoned by its context or its timeout is
// cancelled on the wire with notifications/cancelled (SPEC B11).
//
// Elicitation is served (SPEC B12, elicit.go): form and URL modes are
// declared, and a request arriving on the call's own SSE response, on the
// legacy GET stream, as an input_required result (answered by re-sending
// the call with inputResponses) or as a -32042 error (re-sent once after
// the person's URL step) is put to the tool.Asker the call's context
// carries, as a tool.Question whose texts are neutralized and bounded
// (elicit_form.go). Only a call in flight may ask, at most 3 times; a
// request outside one goes to Options.OnDeclined, and a form vouch cannot
// render (nested objects, $ref, over 64 KiB) is declined with its reason,
// to the person and to the server. vouch posts the answer itself: the
// person may take longer than mcp-go waits for a handler. Caveat: mcp-go
// hands vouch a request that arrives on a stream as a decoded map, so a
// legacy server's form lists its fields in name order; an input_required
// result keeps the server's order.
//
// What vouch does not serve it refuses at once (SPEC B9, B10): no
// sampling or roots capability is declared and every such server request
// gets JSON-RPC -32601 immediately (handshake.go); a result of type
// input_required that asks for more than elicitation, or reaches a call
// that can ask nobody, is a tool error naming what was asked; tools with
// execution.taskSupport "required" are rejected from the catalog; a
// server/discover answer must name a 2026-07-28-era version in
// supportedVersions, or vouch falls back to initialize. Its CallOptions
// carry the correlation ID, kept in every Result and CallError, and the
// Effect from local policy: read-only, idempotent or mutating (the zero
// value; unknown counts as mutating). Annotations never set it (SPEC D2).
//
// Every cached tool carries ToolInfo.Digest, policy.Digest of its
// canonical definition (SPEC D8), computed whenever a catalog is fetched or
// loaded; Served and ServedPin give the digest and definition served now,
// which the policy compares with a rule's pin on every call.
//
// When the session is lost (HTTP 404 from mcp-go servers, HTTP 400 "No valid
// session ID provided" from TypeScript-SDK servers, or JSON-RPC -32001), or
// the connection broke before the answer, the connection is replaced by a
// fresh one (a new transport and HTTP pool: TypeScript servers refuse
// re-initialization on the old one) and a read-only or idempotent call is
// re-sent once — only while the server still serves the definition that
// effect was reviewed for (CallOptions.Reviewed). A mutating call fails with ErrSessionLost or
// ErrConnectionLost and is never re-sent (SPEC B7).
//
// Results become text (SPEC E1, E2, E3): text content neutralized, structured
// content serialized as JSON text once (not when a text part already holds
// the same JSON) with base64 strings replaced by a bracketed note
// (structured.go), isError kept as a flag, images, audio,
// blob resources and resource links described as "[unsupported content:
// image/png, 1234 bytes]" and never fetched. Result has no field a result's
// shape could fill, so marker-shaped keys stay inert text. The text is cut
// at Limits.MaxResultBytes (64 KiB) without decoding more than it keeps; a
// response body beyond Limits.MaxResponseBytes (16 MiB) is cut off as it
// streams in and the call fails with ErrResponseTooLarge.
//
// # Skills
//
// skills.go speaks the Skills extension (SEP-2640) on a server's own
// connection: skills/list and skills/get only for servers that declare it,
// only on demand, each entry validated on its own (512 files and 16 MiB per
// skill), a partial listing reported as partial. skills_verify.go checks
// every file read against the entry's digest and size and SKILL.md's
// frontmatter against the entry's. skills_approval.go binds approvals to the
// resource set (a differing set revokes, recording what changed), pins
// verified content through a SkillStore, scans every file before first use
// and offers keep, accept and rollback; skills_freeze.go turns approved
// skills into tool.FrozenSkill values tagged "server:<label>" and keeps a
// skill's reads on its own server unless the person approves a cross-server
// read naming both; skills_resolve.go names skills per origin and orders
// them, local policy first (SPEC I1-I6; docs/server-skills.md).
//
// # MCP Apps
//
// ui.go advertises the io.modelcontextprotocol/ui extension, reads a
// tool's _meta.ui.resourceUri (or the deprecated flat "ui/resourceUri")
// and visibility, keeps tools without "model" visibility out of Tools,
// Executable and AgentTools (AppTool finds them for a view), and reads a
// ui:// resource with resources/read, its type, encoding and size checked
// (SPEC J1-J3). Package apps serves the views.
//
// # Concurrency
//
// All Manager methods are safe for concurrent use. Submitting a message
// never waits on an MCP server: Tools, Executable and AgentTools read an
// immutable snapshot that every state change republishes, and the Manager's
// mutex is never held across network I/O. Dials are serialized per server
// (a select-able semaphore, so waiting callers honour their context);
// refreshes may overlap, and the newest one started wins. mcp-go calls the
// list_changed handler on its own goroutines; it only schedules a refresh,
// coalescing notifications that arrive meanwhile. Close cancels background
// work, closes every connection (ending legacy sessions with a DELETE bounded
// to one second) and waits for its goroutines.
//
// A panic in vouch's code while a server is refreshed — warming, a
// list_changed refresh, one the person asked for — is that server's
// failure, never the process's (SPEC H7): panics.Recover turns it into the
// server's error status with one sentence and an error wrapping
// ErrInternal, and the stack goes to the debug log. A connection closed in
// the background is guarded the same way.
//
// # Caveats
//
//   - Terminal sanitizing is this package's own (sanitize.go) until a shared
//     package exists: ESC sequences removed whole, C0/C1 controls, bidi
//     controls and zero-width characters removed, invalid UTF-8 replaced.
//   - Recursive schemas (a $ref cycle) are rejected, not expanded; so are
//     remote $refs.
//   - A catalog loaded from the store is stale until a refresh confirms it:
//     right after start, a server's tools are offered only once it answered.
//   - A call that timed out or broke mid-way may have run on the server;
//     only its correlation ID tells the person which one to check.
//   - Redirects are refused (a redirect could carry the secret header to
//     another host); the person enters the final URL.
//   - Legacy servers that announce tools.listChanged are dialed twice the
//     first time: the GET notification stream must be configured before the
//     handshake that reveals the era.
//   - A modern connection waits up to two seconds for its subscriptions/listen
//     acknowledgment, so that the tool list fetched next cannot miss a change.
//
// # Size
//
// The package is over the project's ~3,000-line guideline: connections,
// the catalog, calls and result sanitizing share the Manager and its
// per-server state. Skills served by MCP servers (skills*.go) are the seam
// for a sub-package once they no longer reach into that state.
package mcpclient
