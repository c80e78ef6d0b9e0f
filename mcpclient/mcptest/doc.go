// Package mcptest runs real mcp-go MCP servers over Streamable HTTP on
// loopback, with knobs for what vouch must survive: slow tools, a black hole
// that accepts and never answers, a crash mid-call, forgotten sessions (HTTP
// 404, as mcp-go servers answer), HTTP 400 "No valid session ID provided"
// after a restart (as TypeScript-SDK servers answer), huge and streamed
// results, image, audio, blob and resource-link content, invalid tool
// definitions, tools/list_changed, an OAuth challenge, an HTML or garbage
// responder, a server with resources and prompts but no tools, MCP Apps
// tools with every visibility and ui:// views served from a template, and
// the rug pull: a tool whose description, schema and annotations change
// after the person classified it, and change back (rugpull.go), and what
// real peers did (peers.go): an empty server/discover answer, a result
// asking for input, elicitation and sampling requests, progress, a blob
// repeated in structured content, a task-only tool, a Host check and an
// SSE-only server. A Hold keeps the answers to one method (tools/list,
// server/discover) waiting until the test releases them, as a loaded
// server does, so tests order what happens meanwhile without sleeping
// (hold.go). Start is NewServer for a test: it fails the test when the
// server cannot start and closes it when the test ends (start.go).
//
// Like net/http/httptest, it lives beside what it imitates. Its
// constructors need no *testing.T, so `vouch demo` can run a demo server
// from it; it does not import httptest, whose flags would leak into the
// binary.
//
//	srv, err := mcptest.NewServer(mcptest.Options{Tools: mcptest.AllTools()})
//	...
//	defer srv.Close()
//	// srv.URL is http://127.0.0.1:<port>/mcp
package mcptest
