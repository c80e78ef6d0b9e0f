package e2epeer

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// recorder stands in for a test: it records Skipf and Fatalf instead of
// stopping the goroutine.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = fmt.Sprintf(format, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestRequire(t *testing.T) {
	tests := []struct {
		name        string
		env         string
		missing     []error
		wantSkipped string
		wantFailed  string
	}{
		{"all present", "", []error{nil, nil}, "", ""},
		{"all present, strict", "1", nil, "", ""},
		{"missing skips", "", []error{nil, errors.New("tmux is not installed")}, "skipping: an end-to-end peer is missing: tmux is not installed (set VOUCH_E2E=1 to make this a failure)", ""},
		{"missing fails under VOUCH_E2E=1", "1", []error{errors.New("node is not installed")}, "", "VOUCH_E2E=1 but an end-to-end peer is missing: node is not installed"},
		{"another value is not strict", "yes", []error{errors.New("x")}, "skipping: an end-to-end peer is missing: x (set VOUCH_E2E=1 to make this a failure)", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvVar, tc.env)
			r := &recorder{TB: t}
			Require(r, tc.missing...)
			if r.skipped != tc.wantSkipped || r.failed != tc.wantFailed {
				t.Errorf("got skipped %q failed %q, want skipped %q failed %q", r.skipped, r.failed, tc.wantSkipped, tc.wantFailed)
			}
		})
	}
}

func TestCommandAndFile(t *testing.T) {
	if _, err := Command("sh", "apt-get install dash"); err != nil {
		t.Errorf("Command(sh): %v", err)
	}
	_, err := Command("vouch-no-such-command", "apt-get install nothing")
	if err == nil || !strings.Contains(err.Error(), "vouch-no-such-command is not installed (apt-get install nothing)") {
		t.Errorf("Command(missing): got %v, want it to name the command and the install hint", err)
	}
	dir := t.TempDir()
	if got, err := File("this test", "e2epeer_test.go", "git checkout"); err != nil || !filepath.IsAbs(got) {
		t.Errorf("File(present): got %q, %v, want an absolute path", got, err)
	}
	_, err = File("the example server", filepath.Join(dir, "missing.js"), "npm ci --prefix e2e")
	if err == nil || !strings.Contains(err.Error(), "the example server is not installed (npm ci --prefix e2e)") {
		t.Errorf("File(missing): got %v, want it to name the file and the install hint", err)
	}
}

func TestFreePort(t *testing.T) {
	port := FreePort(t)
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatalf("the port FreePort gave cannot be listened on: %v", err)
	}
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
}
