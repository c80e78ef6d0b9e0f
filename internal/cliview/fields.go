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

// orDefault is s, or d when s is empty.
func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Lines is lines as printed one a line, each ended by a newline.
func Lines(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
