package main

import (
	"bytes"
	"context"
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
	p := newPrinter(w)
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
	tbl := newTable(&b)
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

// TestListingsFailOnWriteError: a command whose output cannot be written
// ends with exit code 1 and says so on stderr, instead of exiting 0 with
// nothing printed (SPEC M).
func TestListingsFailOnWriteError(t *testing.T) {
	environ := map[string]string{"VOUCH_STATE_DIR": t.TempDir()}
	tests := [][]string{
		{"help"},
		{"version"},
		{"policy", "list"},
		{"runs"},
		{"profile", "list"},
		{"definition", "list"},
		{"skill", "list"},
		{"server", "list"},
		{"workflows", "status"},
		{"tools"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errOut bytes.Buffer
			e := env{
				stdin:  strings.NewReader(""),
				stdout: &failWriter{},
				stderr: &errOut,
				getenv: func(k string) string { return environ[k] },
			}
			if code := run(context.Background(), args, e); code != exitFailure {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, exitFailure, errOut.String())
			}
			if !strings.Contains(errOut.String(), syscall.EPIPE.Error()) {
				t.Errorf("stderr: got %q, want it to name the write error", errOut.String())
			}
		})
	}
}
