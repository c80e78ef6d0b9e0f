// Package toolselect is the per-conversation tool selector (issue 18
// item 22; SPEC F1–F3, L2): every tool the conversation could offer,
// grouped by server or sorted by cost, filtered as the person types, each
// with its token cost, and a running total against the model's tool
// budget. Space switches a tool; enter applies the selection to this
// conversation, ctrl+t applies it and keeps it as the default for new
// conversations, esc leaves everything as it was.
//
// The selector turns tools off for the conversation; it never defers a
// tool that asks the person (SPEC F3: such a tool is always sent whole).
// Its running total is what a run would send with the tools switched on:
// all of them in full when they fit, else the asking ones in full and the
// meta-tools a run sends for the deferred rest.
//
// The root opens it when a server just activated brings tools that would
// not fit, and from the key a refusal for the budget offers (sorted by
// cost). Its data comes through Source, implemented in internal/tuiwire.
package toolselect
