// Package agent owns the agent loop: the OpenAI-compatible model client (probing
// local servers, listing models, discovering the effective context window),
// prompt assembly, streaming chat completions with tool calls, tool dispatch
// through frozen identities, loop limits and budgets, cancellation, and the
// events a run publishes.
//
// # Basics
//
// A run is started with a frozen RunSpec and publishes Events on a channel the
// caller owns. Every event is must-deliver: the run blocks (or stops, when its
// context is cancelled) rather than drop one. TextDelta events carry only the
// new text; a consumer that wants fewer updates coalesces them itself (the
// TUI does so at about 30 per second) and never drops text.
//
// # Concurrency
//
// Client is safe for concurrent use. A run owns its goroutine; it never calls
// back into the caller except through the events channel and the Transcript it
// was given. Cancelling the run's context stops streaming and pending tool
// calls; whatever was streamed is persisted marked partial, never as complete
// (SPEC A5).
package agent
