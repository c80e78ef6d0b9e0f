// Package kit owns what every pane family of the interface shares: the
// [Common] context (size, [Styles], clock), the [Theme] of semantic colour
// tokens and the [Styles] built from it, the [Modal] interface with the
// [Action]s a modal returns and the optional interfaces the root's modal
// stack looks for ([Revealer], [Granter], [SettleShower], [Waiter]), the
// modal frame ([ModalBox], [InnerWidth]), the yes-or-no [Confirm] and its
// [Choice], and the pieces of state a list pane or a Settings page keeps
// the same way ([PageFrame], [Loads], [ListCursor], [ScrollKey],
// [FieldInput]) with the text helpers they draw with ([Sentence],
// [WrapLines], [Pad], [Ago], …).
//
// # Boundaries
//
// kit imports no pane package and nothing of tui's root: the chat, the
// approval pane, the rule editor and every Settings page import kit, never
// the other way round. It does no I/O; like every package under tui it
// imports neither bbolt, net/http, a keyring package nor vouch/store
// (internal/archtest). It holds no mutable package-level state:
// [DefaultStyles] builds one Styles value that the root hands to every
// component in Common.
//
// # Keys
//
// Common carries no key bindings. Each component owns its KeyMap and gets
// it from whoever builds it — the root, which holds every binding of the
// interface, hands each pane its group (for Confirm, a [ConfirmKeyMap]).
// So a pane family's keys live beside the code that handles them, and kit
// need not know every pane to describe the bindings.
//
// # Modals
//
// A Modal never reaches into the root. It returns an Action — [CloseModal],
// [OpenModal] to push another modal on top of itself, [SelectModel] — and
// Cmds; a modal that closes hands a result to the one below it with
// [DeliverMsg]. A modal that grants something settles (SPEC D7): it returns
// a KeyGrace, or implements Granter when only some of its keys grant; the
// settle rule itself is the root's (tui/settle.go), since it spans the
// stack and the chat input.
package kit
