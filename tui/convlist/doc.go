// Package convlist owns the conversation list (SPEC L5; issue 18): every
// stored conversation, newest first, one row each — the title from the
// person's first message (neutralised, cut to the row), the model of its
// latest run, how many messages it holds, and when it was last updated;
// the conversation on screen is marked ●. Typing filters the rows (every
// word must appear in the title or the model, case-insensitively); enter
// reopens the conversation under the cursor, which the root applies
// ([Reopen]: the transcript loads and sending continues it); ctrl+d
// deletes it after a confirmation.
//
// # Decisions
//
// Typing always goes to the filter, so no letter is a command: the delete
// key is ctrl+d, not d, or a filter could never start with a d. The
// conversation on screen cannot be deleted (the pane says so and what to
// do): a run may be writing to it, and deleting what one is reading
// leaves nothing to show. While a reply streams, enter does not reopen
// another conversation; the pane says to wait or press esc first.
//
// # Boundaries
//
// convlist imports tui/kit only, never the root or another pane. [Store]
// is the narrow backend it needs; its Cmds (cmds.go) call it with a
// bounded context and return typed messages, so Update and View do no
// I/O. The list is loaded once when the pane opens (a thousand
// conversations are a few milliseconds of header reads) and filtered in
// memory.
package convlist
