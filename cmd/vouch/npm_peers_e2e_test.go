package main

import (
	"bytes"
	"errors"
	"net"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The npm peers of the CLI's end-to-end tests, installed by `npm ci
// --prefix e2e` (pinned in e2e/package.json).
const (
	playwrightMCPBin = "../../e2e/node_modules/@playwright/mcp/cli.js"
	mcpProxyBin      = "../../e2e/node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs"
	filesystemBin    = "../../e2e/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
)

// syncBuffer is an output buffer safe for a process and a test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startNpmPeer starts cmd in its own process group and waits (at most
// 60 s) until addr accepts TCP. The group is killed when the test ends,
// and its output logged if the test failed.
func startNpmPeer(t *testing.T, what, addr string, cmd *exec.Cmd) {
	t.Helper()
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", what, err)
	}
	t.Cleanup(func() {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			t.Errorf("kill %s: %v", what, err)
		}
		var exit *exec.ExitError
		if err := cmd.Wait(); err != nil && !errors.As(err, &exit) {
			t.Errorf("reap %s: %v", what, err)
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", what, out.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s within 60 s: %v\n%s", what, addr, err, out.String())
		}
		<-tick.C
	}
}
