package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/sessiond"
	"vouch/store"
)

// sessionVouch is the command line of `vouch` on state against model, in
// workspace.
func sessionVouch(bin, state, workspace string, model *agenttest.Server) string {
	return fmt.Sprintf("cd %s && %s --state-dir %s --model-url %s --model m", workspace, bin, state, model.URL())
}

// panePID is the pid of the process in the pane (the vouch client).
func (s *tmuxSession) panePID() int {
	s.t.Helper()
	out := strings.TrimSpace(s.run("display-message", "-p", "-t", s.name, "#{pane_pid}"))
	pid, err := strconv.Atoi(out)
	if err != nil {
		s.t.Fatalf("pane pid %q: %v", out, err)
	}
	return pid
}

// hangUp sends SIGHUP to the pane's vouch, as a dropped SSH connection
// does, and waits for the client to end.
func (s *tmuxSession) hangUp() {
	s.t.Helper()
	if err := syscall.Kill(s.panePID(), syscall.SIGHUP); err != nil {
		s.t.Fatalf("SIGHUP the client: %v", err)
	}
	s.waitFor("the client to end", func(string) bool { return !s.alive() })
}

// sessionPID asks the session of state for its pid; 0 when none runs.
func sessionPID(t testing.TB, state string) int {
	t.Helper()
	var pid int
	err := sessiond.Ask(state, sessiond.Request{Op: sessiond.OpInfo}, func(r sessiond.Reply) error {
		if r.Info != nil {
			pid = r.Info.Pid
		}
		return nil
	})
	if err != nil {
		return 0
	}
	return pid
}

// stopSessionAtEnd kills the session of state when the test ends, so no
// session outlives its test.
func stopSessionAtEnd(t testing.TB, state string) {
	t.Cleanup(func() {
		if pid := sessionPID(t, state); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// slowAnswer is a reply that stops half-way until gate closes.
func slowAnswer(gate chan struct{}) agenttest.Script {
	steps := agenttest.Words("alpha bravo charlie delta echo ")
	steps = append(steps, agenttest.Wait(gate))
	steps = append(steps, agenttest.Words("foxtrot golf hotel india omega.")...)
	return agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: steps}}}
}

// halfAnswered starts vouch in tmux at 80x24 on a state dir and session
// of its own (stopped when the test ends), with a model that streams half
// an answer and holds at gate; it sends a prompt, waits for the half and
// returns the command line, the state dir, the pane and the session's pid.
func halfAnswered(t *testing.T, gate chan struct{}) (cmd, state string, first *tmuxSession, pid int) {
	t.Helper()
	bin := buildVouch(t)
	model := agenttest.New(slowAnswer(gate), agenttest.WithModels("m"))
	t.Cleanup(model.Close)
	state, workspace := t.TempDir(), t.TempDir()
	stopSessionAtEnd(t, state)
	cmd = sessionVouch(bin, state, workspace, model)
	first = newTmux(t, 80, 24, cmd)
	first.waitText("Ask anything")
	first.typeText("tell me the alphabet")
	first.keys("Enter")
	first.waitText("alpha bravo charlie delta echo")
	if pid = sessionPID(t, state); pid == 0 {
		t.Fatal("no session answers on the state dir while vouch runs")
	}
	return cmd, state, first, pid
}

// TestE2ESessionSurvivesHangUp (SPEC K4): vouch in tmux, a prompt to a
// model that streams half an answer and waits; SIGHUP kills the client
// as a dropped SSH connection does; the rest of the answer is released
// while no terminal is attached. vouch in a new window reattaches to the
// same session: the whole answer is there, and the history holds one run.
func TestE2ESessionSurvivesHangUp(t *testing.T) {
	gate := make(chan struct{})
	cmd, state, first, pid := halfAnswered(t, gate)
	first.hangUp()
	if got := sessionPID(t, state); got != pid {
		t.Fatalf("after the hang-up the session is %d, want %d still running", got, pid)
	}
	close(gate) // the answer goes on with nobody attached

	second := newTmux(t, 80, 24, cmd)
	second.waitFor("the whole answer after reattaching", func(p string) bool {
		// Whole once the run has ended (enter sends again): ctrl+c during
		// the run would stop it, not quit (seen in a full run under load).
		return strings.Contains(p, "alpha bravo charlie delta echo foxtrot golf hotel india omega.") && strings.Contains(p, "tell me the alphabet") &&
			strings.Contains(p, "enter send")
	})
	if got := sessionPID(t, state); got != pid {
		t.Fatalf("reattaching started session %d, want the running %d", got, pid)
	}
	second.keys("C-c")
	second.waitFor("vouch to exit", func(string) bool { return !second.alive() })

	out, _ := cli(t, state, "", exitOK, "runs", "--json")
	var runs runsJSON
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("runs --json: %v\n%s", err, out)
	}
	if len(runs.Runs) != 1 || runs.Runs[0].Outcome != store.RunDone {
		t.Fatalf("runs = %+v, want the one chat run, done", runs.Runs)
	}
}

// TestE2ESessionApprovalWaitsAcrossHangUp (SPEC K4, D4, D7): a call that
// needs approval is on screen when the client hangs up. Nothing runs
// while no terminal is attached; reattaching shows the pane in front,
// settling again before any key answers it; allowing it then writes.
func TestE2ESessionApprovalWaitsAcrossHangUp(t *testing.T) {
	bin := buildVouch(t)
	model := writingModel(t)
	state, workspace := t.TempDir(), t.TempDir()
	stopSessionAtEnd(t, state)
	cmd := sessionVouch(bin, state, workspace, model)
	note := filepath.Join(workspace, "notes.md")

	first := newTmux(t, 80, 24, cmd)
	first.waitText("Ask anything")
	first.typeText("write the notes")
	first.keys("Enter")
	first.waitText(approvalTitle)
	first.hangUp()

	second := newTmux(t, 80, 24, cmd)
	pane := second.waitText(approvalTitle)
	if !strings.Contains(pane, "keys active in a moment") {
		t.Fatalf("the pane drawn again after reattaching answers keys at once (SPEC D7):\n%s", pane)
	}
	if _, err := os.Stat(note); !os.IsNotExist(err) {
		t.Fatalf("the call ran while nobody was attached: %v", err)
	}
	second.answerPane("a")
	second.waitText("Written.")
	if got, err := os.ReadFile(note); err != nil || string(got) != "kept\n" {
		t.Fatalf("after allowing, notes.md = %q, %v", got, err)
	}
	second.keys("C-c")
	second.waitFor("vouch to exit", func(string) bool { return !second.alive() })
}

// TestE2ESessionKilled (SPEC K3, K4): the session killed with -9 mid-run;
// the next vouch starts a fresh session on the same state dir, and the
// run shows as interrupted.
func TestE2ESessionKilled(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	cmd, state, first, pid := halfAnswered(t, gate)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.waitFor("the client to end with its session", func(string) bool { return !first.alive() })

	second := newTmux(t, 80, 24, cmd)
	second.waitText("Ask anything")
	if got := sessionPID(t, state); got == 0 || got == pid {
		t.Fatalf("the session after the kill is %d, want a fresh one (killed %d)", got, pid)
	}
	second.keys("C-r")
	second.waitFor("the interrupted run in the history", func(p string) bool {
		return strings.Contains(p, "Run history (1)") && strings.Contains(p, "failed")
	})
}

// TestE2EAttachWithoutSession: vouch attach never starts a session; it
// says there is none and how to start one (exit 5).
func TestE2EAttachWithoutSession(t *testing.T) {
	bin := buildVouch(t)
	state := shortState(t)
	s := newTmux(t, 200, 24, fmt.Sprintf("%s --state-dir %s attach; echo exit=$?; sleep 60", bin, state))
	pane := s.waitText("exit=")
	if !strings.Contains(pane, "no vouch session runs on") || !strings.Contains(pane, "run vouch to start one") || !strings.Contains(pane, "exit=5") {
		t.Fatalf("vouch attach without a session said:\n%s", pane)
	}
	if sessionPID(t, state) != 0 {
		t.Fatal("vouch attach started a session")
	}
}

// TestE2ESessionViewer (SPEC K4): a second vouch on the same state dir
// views the first — the same screen, its own bottom line saying where the
// keyboard is, its keys not forwarded — until ctrl+t takes the keyboard
// over; the first window then views. ctrl+\ detaches the holder with one
// line, and the session goes on.
func TestE2ESessionViewer(t *testing.T) {
	bin := buildVouch(t)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Seen by both.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	state, workspace := t.TempDir(), t.TempDir()
	stopSessionAtEnd(t, state)
	cmd := sessionVouch(bin, state, workspace, model)
	const viewing = "viewing — the keyboard is in the other window"

	a := newTmux(t, 80, 24, cmd)
	a.waitText("Ask anything")
	b := newTmux(t, 80, 24, cmd+"; echo exit=$?; sleep 60")
	b.waitText(viewing)
	a.typeText("typed in a")
	b.waitText("typed in a")
	b.typeText("zzz") // a viewer's keys go nowhere
	a.keys("Enter")
	b.waitText("Seen by both.")
	if strings.Contains(a.capture(), "zzz") || strings.Contains(a.capture(), viewing) {
		t.Fatalf("the holder's window:\n%s", a.capture())
	}

	b.keys("C-t")
	a.waitText(viewing)
	b.waitFor("b to hold the keyboard", func(p string) bool { return !strings.Contains(p, viewing) })
	b.typeText("typed in b")
	a.waitText("typed in b")

	b.keys(`C-\`)
	pane := b.waitText("exit=")
	if !strings.Contains(pane, "detached; run vouch to return") || !strings.Contains(pane, "exit=0") {
		t.Fatalf("detaching said:\n%s", pane)
	}
	// a held nothing; with the holder gone it takes the keyboard.
	a.waitFor("a to hold the keyboard again", func(p string) bool { return !strings.Contains(p, viewing) })
	if sessionPID(t, state) == 0 {
		t.Fatal("the session ended with the detach")
	}
}

// TestE2ESessionViewerSeesApprovalWaiting (SPEC K4, D4): a second window
// on a session whose interface shows an approval pane says that the
// approval waits in the other window and how to take it over; its keys
// answer nothing.
func TestE2ESessionViewerSeesApprovalWaiting(t *testing.T) {
	bin := buildVouch(t)
	model := writingModel(t)
	state, workspace := t.TempDir(), t.TempDir()
	stopSessionAtEnd(t, state)
	cmd := sessionVouch(bin, state, workspace, model)

	a := newTmux(t, 80, 24, cmd)
	a.waitText("Ask anything")
	a.typeText("write the notes")
	a.keys("Enter")
	a.waitText(approvalTitle)
	b := newTmux(t, 80, 24, cmd)
	b.waitText("viewing — an approval waits in the other window (ctrl+t)")
	b.typeText("a")
	if _, err := os.Stat(filepath.Join(workspace, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("a viewer's key answered the pane: %v", err)
	}
	a.answerPane("d")
	b.waitFor("the viewer line without the approval", func(p string) bool {
		return strings.Contains(p, "viewing — the keyboard is in the other window (ctrl+t") && !strings.Contains(p, approvalTitle)
	})
}

// writingModel is a model that asks to write notes.md and, once the call
// has a result, answers "Written.". The test's cleanup closes it.
func writingModel(t *testing.T) *agenttest.Server {
	t.Helper()
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Written.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"notes.md","content":"kept\n"}`)}},
	}}, agenttest.WithModels("m"))
	t.Cleanup(model.Close)
	return model
}
