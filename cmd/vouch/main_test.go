package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// e2eTimeout bounds every wait on the real binary: generous, because CI
// machines are noisy, and named, so no test invents its own.
const e2eTimeout = 20 * time.Second

// binary builds the vouch binary once per test process.
var binary = struct {
	once sync.Once
	dir  string
	path string
	err  error
}{}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		_ = os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// buildVouch returns the path of a freshly built vouch binary.
func buildVouch(tb testing.TB) string {
	tb.Helper()
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "vouch-bin-")
		if err != nil {
			binary.err = err
			return
		}
		binary.dir = dir
		binary.path = filepath.Join(dir, "vouch")
		out, err := exec.Command("go", "build", "-o", binary.path, ".").CombinedOutput()
		if err != nil {
			binary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binary.err != nil {
		tb.Fatal(binary.err)
	}
	return binary.path
}
