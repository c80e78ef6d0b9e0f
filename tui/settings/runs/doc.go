// Package runs owns the run history (SPEC H7, L2): the list of every run —
// chat, profile, scheduled, headless — newest first, a page at a time
// ([List], opened by ctrl+r), and one run with the specification it froze,
// its calls with correlation IDs, approvals, events and outcome
// ([DetailPane]). [History] is the narrow backend it needs, with the view
// types a backend fills in; the root discovers it on its Backend by type
// assertion, and without it the pane says the history is not available.
//
// While a run on the first page is still going, the list reloads on a
// tick, tagged with its load so a stale one is dropped; once every run
// shown has ended no tick is set.
//
// # Boundaries
//
// runs imports tui/kit only, never the root or another pane. Its Cmds
// (cmds.go) call History with a bounded context and return typed
// messages; Update and View do no I/O. Like every package under tui it
// imports neither bbolt, net/http, a keyring package nor vouch/store
// (internal/archtest).
package runs
