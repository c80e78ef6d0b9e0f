// Package apps shows MCP Apps (SPEC J, the io.modelcontextprotocol/ui
// extension) from a terminal: it validates an app resource's declared CSP
// domains and builds the policy from them, runs the host side of a view's
// postMessage bridge, and serves views from a loopback-only viewer with a
// separate-origin sandbox proxy, for the person's own browser.
//
// # Pieces
//
// ValidateCSP and CSP.Header (SPEC J3): every declared domain is a host
// source with https:// or wss:// (http:// and ws:// for loopback only),
// without whitespace, ";", ",", quotes or keywords; the header is the
// specification's restrictive default widened only by those domains.
//
// Bridge (SPEC J4) is one view's state machine: sandbox proxy ready → the
// HTML goes to the proxy → ui/initialize answered with host info, the
// capabilities the bridge implements (openLinks, serverTools, message with
// text) and the host context → ui/notifications/initialized → tool input,
// then the tool result exactly as the server sent it (or tool-cancelled) →
// ui/resource-teardown before closing. Nothing is sent to a view before it
// initialized. tools/call is checked by CheckToolCall (the originating
// server only, "app" visibility, the view's own resource; SPEC J2) and
// then handed to the Host, which runs it through the terminal's approval
// pane and the audit; ui/open-link and ui/message ask the person through
// the Host too. ping and ui/request-display-mode ("inline") are answered;
// anything else answers a JSON-RPC error.
//
// Viewer (SPEC J4) serves the host page on http://127.0.0.1:<port> and the
// sandbox proxy on http://localhost:<other port>, two origins that stay
// distinct through `ssh -L`. Every request is checked for its Host header,
// its Origin and a per-view 256-bit token in the path; the sandbox page
// carries the view's CSP as an HTTP header.
//
// # Caveats
//
//   - The browser side is not trusted: the host page relays whatever the
//     proxy frame posts, and every decision is taken here.
//   - A view is not a standalone app: it exists only for a tool call of a
//     connected server (SPEC J5); nothing here loads HTML from a URL.
//   - Permissions (camera, microphone, …) are never granted.
package apps
