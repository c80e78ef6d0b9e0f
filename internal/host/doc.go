// Package host owns the session process: the one place where the
// application (internal/app), the terminal interface (tui, composed by
// internal/tuiwire) and the session's socket (internal/sessiond) meet
// (SPEC K4, K5).
//
// Serve opens the application on a state directory, holds its database
// for the session's life, composes the interface once — the scheduler,
// the approvals inbox and the runs live there — and serves every client
// that reaches the socket: terminals (a holder and viewers, each drawn at
// the smallest attached size), the control requests of `vouch run
// --detach` and `vouch runs show --follow`, and commands run through the
// session on its application (Config.Exec, the command line's own
// dispatch). RunInterface runs the same interface in-process, for `vouch
// demo`.
//
// Client is the other side, in every other vouch process: it dials only
// a session sessiond.Dial trusts, starts `vouch session serve` (which
// calls Serve) when none runs, converging simultaneous starts on one,
// relays a terminal (Attach), runs a command in the session (Exec), asks
// for its Info, a hand-over, a detached run or a followed one, and
// neutralises every word the session sends before it is read. The command
// line (cmd/vouch) keeps flags, printing and exit codes.
package host
