package main

import (
	"bytes"
	"context"
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
