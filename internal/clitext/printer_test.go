package clitext

import (
	"bytes"
	"errors"
	"strings"
	"syscall"
	"testing"
)

// failWriter fails every write, like a pipe whose reader has gone.
type failWriter struct{ writes int }

func (w *failWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, syscall.EPIPE
}

// TestPrinterKeepsFirstError: after a failed write the printer writes
// nothing more, and Flush returns the first error wrapped with what was
// being written.
func TestPrinterKeepsFirstError(t *testing.T) {
	w := &failWriter{}
	p := NewPrinter(w)
	p.Println("one")
	p.Printf("%s\n", "two")
	p.Field("three", "3")
	err := p.Flush("the list")
	if !errors.Is(err, syscall.EPIPE) || !strings.HasPrefix(err.Error(), "write the list: ") {
		t.Errorf("Flush: got %v, want EPIPE wrapped with \"write the list: \"", err)
	}
	if w.writes != 1 {
		t.Errorf("writes: got %d, want 1 (none after the first failure)", w.writes)
	}

	var b bytes.Buffer
	tbl := NewTable(&b)
	tbl.Field("name", "x\x1b[31my")
	tbl.Printf("%s\t%s\n", "longer name", "z")
	if b.Len() != 0 {
		t.Errorf("a table wrote before Flush: %q", b.String())
	}
	if err := tbl.Flush("the table"); err != nil {
		t.Fatal(err)
	}
	want := "name         xy\nlonger name  z\n" // the escape sequence neutralized
	if got := b.String(); got != want {
		t.Errorf("table: got %q, want %q", got, want)
	}
}

// TestAlignMatchesTable: composed text aligns byte for byte as a table
// prints it, and Write wraps a failed write with what was being written.
func TestAlignMatchesTable(t *testing.T) {
	text := "NAME\tSTATUS\nlonger name\tok\n\tindented\n"
	var b bytes.Buffer
	tbl := NewTable(&b)
	tbl.Printf("%s", text)
	if err := tbl.Flush("list"); err != nil {
		t.Fatal(err)
	}
	if got := Align(text); got != b.String() || got != "NAME         STATUS\nlonger name  ok\n             indented\n" {
		t.Fatalf("Align = %q, the table printed %q", got, b.String())
	}
	err := Write(&failWriter{}, "the run", "x\n")
	if !errors.Is(err, syscall.EPIPE) || !strings.HasPrefix(err.Error(), "write the run: ") {
		t.Fatalf("Write: got %v, want EPIPE wrapped with \"write the run: \"", err)
	}
	var out bytes.Buffer
	if err := Write(&out, "the run", "x\n"); err != nil || out.String() != "x\n" {
		t.Fatalf("Write: %v, wrote %q", err, out.String())
	}
}
