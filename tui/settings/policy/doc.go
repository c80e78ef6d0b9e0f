// Package policy owns Settings › Tools & Workflows › Policy (SPEC D1, D4,
// D6, D8, L2): the reviewed rules — identity, class, effect, constraints
// and note, a rule whose tool changed since it was pinned marked so — and
// below them the 20 most recent audited decisions, newest first, with
// times relative to the injected clock ([Page]). Enter edits a rule in the
// rule editor, x deletes one after a confirmation whose default is
// Cancel, r refreshes. [Editor] is the narrow backend it needs; an Editor
// that is also a [PinChecker] names the changed tools, and one that is a
// [ToolNamer] names every tool as people read it, "demo tools › lookup"
// (the selected rule's details keep the identity; issue 18 item 9).
//
// # Boundaries
//
// policy imports tui/kit, tui/settings and the shared rule editor
// (tui/ruleedit) only, never the root or another page. The rule editor is
// a shared component the approval pane opens too; the page does not build
// it: the root hands [New] the function that opens it on a stored rule
// over the Backend, and the page hears the editor's result, a
// ruleedit.SavedMsg, by its type. Its Cmds call the Editor
// with a bounded context; Update and View do no I/O. Like every package
// under tui it imports neither bbolt, net/http, a keyring package nor
// vouch/store (internal/archtest). The package's name is the one of
// vouch/policy, whose rules it shows: inside it that package is vpolicy,
// and importers that need both name this one tuipolicy.
package policy
