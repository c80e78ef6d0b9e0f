package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/sessiond"
)

// sessionProcesses counts the running `vouch session serve` processes of
// state, from /proc.
func sessionProcesses(t *testing.T, state string) int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // it ended
		}
		args := bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0})
		var stateArg, serve bool
		for i, a := range args {
			stateArg = stateArg || (string(a) == "--state-dir" && i+1 < len(args) && string(args[i+1]) == state)
			serve = serve || (string(a) == "serve" && i > 0 && string(args[i-1]) == sessionCmd)
		}
		if stateArg && serve {
			n++
		}
	}
	return n
}

// TestE2ESessionSimultaneousStarts (SPEC K4; issue 23 item 5): eight
// `vouch` started at the same moment on a fresh state directory converge
// on one session — none fails — and all eight windows work: one holds the
// keyboard, seven view, every one shows the interface.
func TestE2ESessionSimultaneousStarts(t *testing.T) {
	bin := buildVouch(t)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Hello.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	state := filepath.Join(shortState(t), "fresh") // does not exist yet
	workspace := t.TempDir()
	stopSessionAtEnd(t, state)
	gate := filepath.Join(t.TempDir(), "go")
	// Each window waits for the gate, then starts vouch: the starts are
	// as close together as the shell's loop (10 ms) allows.
	cmd := fmt.Sprintf("echo waiting; while [ ! -e %s ]; do sleep 0.01; done; %s; echo exit=$?; sleep 60", gate, sessionVouch(bin, state, workspace, model))
	const n = 8
	var windows []*tmuxSession
	for range n {
		w := newTmux(t, 80, 24, cmd)
		w.waitText("waiting")
		windows = append(windows, w)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const viewing = "viewing — the keyboard is in the other window"
	holders := 0
	for i, w := range windows {
		pane := w.waitFor(fmt.Sprintf("window %d to show the interface", i), func(p string) bool {
			return strings.Contains(p, "Ask anything") || strings.Contains(p, "exit=")
		})
		if strings.Contains(pane, "exit=") {
			t.Fatalf("window %d: vouch ended instead of joining the session:\n%s", i, pane)
		}
		if !strings.Contains(pane, viewing) {
			holders++
		}
	}
	if got := sessionProcesses(t, state); got != 1 {
		t.Fatalf("%d session processes on the state dir, want 1", got)
	}
	info, ok, err := sessionInfo(state)
	if err != nil || !ok || info.Clients != n || info.Viewers != n-1 {
		t.Fatalf("the session: %+v, %v, %v; want %d clients, %d viewing", info, ok, err, n, n-1)
	}
	if holders != 1 {
		t.Fatalf("%d windows hold the keyboard, want 1", holders)
	}
}

// TestE2ESessionResetKeepsTheNewSession (SPEC K4; issue 23 item 5): the
// state directory is reset while a session lives; vouch starts a new
// session there; the old one notices its socket is gone and exits — and
// the new session, its window and its socket survive that exit.
func TestE2ESessionResetKeepsTheNewSession(t *testing.T) {
	bin := buildVouch(t)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Still here.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	state, workspace := shortState(t), t.TempDir()
	stopSessionAtEnd(t, state)
	cmd := sessionVouch(bin, state, workspace, model)

	old := newTmux(t, 80, 24, cmd+"; echo exit=$?; sleep 60")
	old.waitText("Ask anything")
	oldPID := sessionPID(t, state)
	if oldPID == 0 {
		t.Fatal("no session answers")
	}
	t.Cleanup(func() { _ = syscall.Kill(oldPID, syscall.SIGKILL) })
	// The reset.
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	fresh := newTmux(t, 80, 24, cmd)
	fresh.waitText("Ask anything")
	newPID := sessionPID(t, state)
	if newPID == 0 || newPID == oldPID {
		t.Fatalf("after the reset the session is %d, want a new one (the old is %d)", newPID, oldPID)
	}
	sock, err := os.Lstat(sessiond.SocketPath(state))
	if err != nil {
		t.Fatal(err)
	}

	// The old session checks its socket every 10 s; its window says when
	// it ended.
	old.waitFor("the old session to end", func(p string) bool { return strings.Contains(p, "exit=") })
	now, err := os.Lstat(sessiond.SocketPath(state))
	if err != nil || !os.SameFile(now, sock) {
		t.Fatalf("the old session's exit took the new one's socket: %v", err)
	}
	if got := sessionPID(t, state); got != newPID {
		t.Fatalf("after the old session's exit the session is %d, want %d", got, newPID)
	}
	fresh.typeText("are you there")
	fresh.keys("Enter")
	fresh.waitText("Still here.")
}
