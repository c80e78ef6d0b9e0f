// Package ttyprompt owns the headless approval prompt of `vouch run
// --approve-tty`: one question per tool call that needs the person, asked on
// the controlling terminal, answered only by a deliberate word typed after
// the question appeared (SPEC D3, D4, D7).
//
// It is a front end, like the TUI: it reads what vouch knows about a call
// (the agent's approval request, the application's description of the
// tool) and never decides anything itself. It must not import the TUI or
// the store. Pending terminal input is discarded with tcflush on Linux and
// TIOCFLUSH on the BSDs; elsewhere the prompt refuses to ask.
package ttyprompt
