// Package approval owns the moments a tool call waits for the person
// (SPEC D3, D4, D7, D8, H6, J4, L2): the approval pane ([Pane]) that vouch
// renders from the call itself — identity, server, the policy's reason and
// effect, the tool's preview (a unified diff, or what changed in a tool's
// definition, changed.go) and every argument in the model's key order with
// control characters escaped (args.go, walk.go, preview.go) — the queue
// of calls waiting ([Queue], [Request]), the approvals inbox of background
// runs ([InboxList] over the [Inbox] backend), an MCP App view's
// request for consent ([Consent]), and a server's question to the person
// mid-call, a form or a URL to visit ([ElicitPane], SPEC B12), under the
// same keyboard rule.
//
// # Boundaries
//
// approval imports tui/kit and the shared rule editor (tui/ruleedit)
// only, never the root or another pane: classify opens whatever modal the
// root hands the pane in [Options.Classify] (the root builds the editor
// over its Backend), and the pane recognises the editor's result, a
// ruleedit.SavedMsg, by its type. [ToolDescriber] and [Inbox] are
// the narrow backends it needs; the root finds them on its Backend by type
// assertion. The pane never answers a call: it returns an [Action], and
// the root sends the decision once, from a Cmd ([SendDecision]), or
// through the Inbox ([AnswerInbox]). The settle rule that holds keys back
// while a pane appears is the root's (tui/settle.go): the pane and the
// consent return their KeyGrace and draw themselves dimmed while settling.
// Cmds call the backends with a bounded context and return typed
// messages; Update and View do no I/O. Like every package under tui it
// imports neither bbolt, net/http, a keyring package nor vouch/store
// (internal/archtest).
//
// # Compact form
//
// Under 14 rows the pane takes a compact form (SPEC L6): the tool, its
// server and host, any warning, the arguments folded, and the keys.
package approval
