// Package cliview composes the text of cmd/vouch's commands: how a view —
// a value internal/app returns — reads as lines on a terminal. One file per
// command family (runs, profiles, servers, policy, server skills, locks,
// doctor, skills); each function takes the view and returns the text,
// aligned the way clitext's tables align it, every untrusted string
// neutralised with safetext on the way (SPEC D3). It does no I/O: cmd/vouch
// keeps the flags, the calls into app, the writing (clitext.Write) and the
// exit codes, as internal/tuiwire composes the same views for the TUI.
package cliview

import (
	"fmt"
	"strings"

	"vouch/internal/clitext"
	"vouch/safetext"
)

// fields collects "key<TAB>value" rows, each value neutralised and kept on
// one line, as clitext.Printer.Field prints them.
type fields struct{ b strings.Builder }

func (f *fields) add(key, value string) {
	fmt.Fprintf(&f.b, "%s\t%s\n", key, safetext.Line(value, 0))
}

// String is the rows aligned in two columns.
func (f *fields) String() string { return clitext.Align(f.b.String()) }

// OrDefault is s, or d when s is empty.
func OrDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
