// Package notes owns what the interface says in terminal notifications
// (SPEC L4): the [Note] and its kinds, the [Notifier] that sends notes and
// the optional capabilities around it ([FocusNotifier], a Backend's
// [RunEnds]), the focus and turn timing that decide when a note is due
// ([State]), and the words of each note.
//
// While the terminal is not focused, the root asks its Notifier to notify
// when a call of the chat's run starts waiting for approval, when calls of
// background runs arrive in the approvals inbox, when a background run
// ends, and when a turn longer than the long-turn threshold completes.
// Focus comes from the terminal's focus reports (DECSET 1004); a terminal
// that never reports is taken as unfocused, so it is always notified. The
// Notifier decides what reaches the terminal — the level, the rate limit,
// the sequence — and cleans the text, which names untrusted servers and
// tools.
//
// The package does no I/O of its own: [Issue] returns the Cmd that calls
// the Notifier, and the look-ups a note's words need (a server's label, the
// inbox) are functions the root hands in, called inside that Cmd.
package notes
