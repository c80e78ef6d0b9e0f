// Package chat owns the chat screen's transcript: its items (messages,
// reasoning traces, tool calls with their results), their rendering with
// a small line-based Markdown renderer, the per-item render cache keyed by
// (width, version), and the stream reader that coalesces a run's deltas on
// their way to the screen.
//
// # Transcript
//
// A [Transcript] renders only what is visible: following the bottom, it
// walks back from the last item until the screen is full, so appending to
// a 10,000-item transcript costs the same as appending to a 10-item one.
// Finished items are frozen ([Item.Freeze]) and render once per width;
// only the item being streamed renders again (STYLE habit 8). All item
// text is untrusted and passes through vouch/safetext before it is drawn
// (SPEC D3).
//
// # Streaming
//
// A [StreamReader] reads a run's event channel through a re-armed Cmd
// ([StreamReader.Wait]): text and reasoning deltas are joined and
// delivered at most every [CoalesceInterval], while every other event is
// must-deliver and ends the current message at once, in order. Nothing
// read is dropped.
//
// # Boundaries
//
// chat imports tui/kit and no other pane: the root model (tui) owns the
// input, the status line, the run and the conversation, and drives the
// transcript from its update_*.go handlers. chat does no I/O and imports
// neither bbolt, net/http, a keyring package nor vouch/store.
package chat
