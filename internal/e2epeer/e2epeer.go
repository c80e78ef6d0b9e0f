// Package e2epeer is the one rule every end-to-end test of vouch follows
// when an external peer it needs is missing — a command (chromium, node,
// tmux), an npm package of e2e/, or a service such as the Secret Service:
// the test skips with a printed reason and how to get the peer, except
// under VOUCH_E2E=1 (set by .ci/run, which installs every peer), where a
// missing peer fails the test, so CI cannot pass by skipping.
//
// It also hands out free loopback ports for the peers the tests start.
// It is for tests only; nothing in vouch's binary imports it.
package e2epeer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// EnvVar is the environment variable that, set to "1", makes a missing
// peer a failure instead of a skip.
const EnvVar = "VOUCH_E2E"

// Strict reports whether a missing peer fails the test (VOUCH_E2E=1).
func Strict() bool { return os.Getenv(EnvVar) == "1" }

// Require returns at once when every peer is present (missing is nil, or
// every error joined in it is nil). Otherwise it skips tb, saying what is
// missing, or under VOUCH_E2E=1 fails tb.
func Require(tb testing.TB, missing ...error) {
	tb.Helper()
	err := errors.Join(missing...)
	if err == nil {
		return
	}
	if Strict() {
		tb.Fatalf("%s=1 but an end-to-end peer is missing: %v", EnvVar, err)
		return
	}
	tb.Skipf("skipping: an end-to-end peer is missing: %v (set %s=1 to make this a failure)", err, EnvVar)
}

// Command returns the path of the named command on PATH, or an error that
// names it and says how to install it (install, e.g. "apt-get install
// chromium").
func Command(name, install string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not installed (%s): %w", name, install, err)
	}
	return p, nil
}

// File returns path, made absolute, when the file exists, or an error that
// names what it is and says how to install it (install, e.g. "npm ci
// --prefix e2e").
func File(what, path, install string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("%s is not installed (%s): %w", what, install, err)
	}
	return abs, nil
}

// FreePort returns a loopback TCP port that was free when asked, for a
// peer that must be told its port (and may be restarted on it).
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := ln.Close(); err != nil {
		tb.Fatal(err)
	}
	return port
}
