// Package statusline draws the chat screen's status line: the badge and the
// model on the left, then the notice, the error's hint, a warning or the
// server; on the right the phase (under a pane), the inbox, the context
// used, the tool budget and the rate (SPEC F2, F4, L2). Every part keeps a
// separator from the next (issue 18 item 12). A notice or hint is said
// whole: the right side gives up its figures, least needed first (rate,
// tools, context), before the notice is cut; the server's description only
// takes what room is left. The line is at most the screen's width.
//
// The root says what the parts are in a [Parts]; the figures come from
// [Context], [Tools], [Rate] and [Server], which read only their arguments.
// Untrusted text (the model's name, a notice quoting a server) is
// neutralised here before it is drawn (SPEC D3).
package statusline
