package clitext

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"vouch/safetext"
)

// Printer writes a command's text output and keeps the first write error,
// so a listing prints line after line and checks once, at Flush, that all
// of it arrived: output that cannot be written (a closed pipe, a full
// disk) ends the command with an error and exit code 1 (SPEC M), never
// silently. After the first error it writes nothing more.
//
// Every text listing of cmd/vouch writes through a Printer or Write; JSON goes
// through WriteJSON. Only its last-resort error reporter writes to stderr
// without one.
type Printer struct {
	w     io.Writer
	flush func() error // the table's tabwriter; nil for plain output
	err   error
}

// NewPrinter returns a Printer writing straight to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{w: w} }

// NewTable returns a Printer that aligns tab-separated cells in columns;
// nothing reaches w before Flush.
func NewTable(w io.Writer) *Printer {
	tw := newTabWriter(w)
	return &Printer{w: tw, flush: tw.Flush}
}

// newTabWriter is the column layout of every table: two spaces between
// columns.
func newTabWriter(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) }

// Align returns text with its tab-separated cells aligned in columns,
// byte for byte as a NewTable would print it. It writes nothing.
func Align(text string) string {
	var b strings.Builder
	tw := newTabWriter(&b)
	// A strings.Builder never fails a write, so the tabwriter cannot either.
	_, _ = io.WriteString(tw, text)
	_ = tw.Flush()
	return b.String()
}

// Write writes text, composed beforehand (package cliview), to w; an
// error names what was being written ("write the run: …"), as Flush does.
func Write(w io.Writer, what, text string) error {
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}

// Printf writes like fmt.Fprintf.
func (p *Printer) Printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// Println writes like fmt.Fprintln.
func (p *Printer) Println(args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintln(p.w, args...)
	}
}

// Field writes one "key<TAB>value" row, the value neutralized for the
// terminal and kept on one line.
func (p *Printer) Field(key, value string) {
	p.Printf("%s\t%s\n", key, safetext.Line(value, 0))
}

// Flush writes out what a table holds and returns the first error of any
// write, wrapped with what was being written ("write the list: …").
func (p *Printer) Flush(what string) error {
	if p.err == nil && p.flush != nil {
		p.err = p.flush()
	}
	if p.err != nil {
		return fmt.Errorf("write %s: %w", what, p.err)
	}
	return nil
}
