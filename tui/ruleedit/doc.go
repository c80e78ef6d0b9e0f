// Package ruleedit owns the rule editor (SPEC D1, D4, D6, D7): the modal
// form ([Editor]) that sets the reviewed classification of one tool
// identity — its class, its effect, argument constraints that narrow
// "allow", and a note for the person — the drafts it starts from
// ([FromCall] for classify in the approval pane, [FromRule] for a stored
// rule in Settings › Policy), its bindings ([KeyMap]) and the Cmd that
// stores what the person chose through the one-method [Saver], answering
// with a [SavedMsg].
//
// # Boundaries
//
// ruleedit is a shared component, not a pane: the approval pane and the
// Policy page both reach it, and neither opens it itself — the root hands
// each a function that builds it ([New]) over its Backend as the Saver.
// When a save succeeds the editor closes and delivers the SavedMsg to the
// modal below, which the approval pane and the Policy page recognise by
// its type. ruleedit imports tui/kit only, never the root or a pane, and
// like every package under tui neither bbolt, net/http, a keyring package
// nor vouch/store (internal/archtest). Only the person's keys change a
// field; saving never answers a call: a rule applies to runs that start
// later (SPEC D6). A draft from a call carries the digest of the
// definition the pane was asked about, and the saved rule carries it as
// its Seen field: the Saver pins that definition, or refuses when the
// tool has changed since (SPEC D8). Update and View do no I/O.
package ruleedit
