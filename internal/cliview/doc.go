// Package cliview composes the text of cmd/vouch's commands: how a view —
// a value internal/app returns — reads as lines on a terminal. One file per
// command family (runs, profiles, servers, policy, server skills, locks,
// doctor, skills, and the help with its topics); each function takes the
// view and returns the text, aligned the way clitext's tables align it,
// every untrusted string neutralised with safetext on the way (SPEC D3).
// It does no I/O: cmd/vouch keeps the flags, the calls into app, the
// writing (clitext.Write) and the exit codes, as internal/tuiwire composes
// the same views for the TUI.
package cliview
