package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/sessiond"
)

// vouchIn runs the built binary on state with dir as its working
// directory (a session it starts has dir as its workspace) and returns
// stdout, stderr and the exit code.
func vouchIn(t *testing.T, dir, state string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(buildVouch(t), append([]string{"--state-dir", state}, args...)...)
	cmd.Dir = dir
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// detachedID runs `vouch run --detach TASK` in dir and returns the ID it
// printed, failing unless it exits 0 with one ID alone on stdout.
func detachedID(t *testing.T, dir, state, url, task string) string {
	t.Helper()
	out, errOut, code := vouchIn(t, dir, state, "--model-url", url, "run", "--detach", task)
	id := strings.TrimSpace(out)
	if code != 0 || id == "" || strings.ContainsAny(id, " \n") {
		t.Fatalf("run --detach: exit %d, stdout %q, stderr %q; want a run ID", code, out, errOut)
	}
	return id
}

// TestRunDetachPlain (SPEC K4, M; issue 15): on a new state directory —
// no profile, Agent Workflows off — `vouch run --detach TASK` is what
// `vouch run TASK` is there, a plain headless run, started in the session
// process: it prints the run's ID and exits 0; `vouch runs show ID
// --follow` streams it to the end with the answer and exits 0.
func TestRunDetachPlain(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Plain and detached.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	state := shortState(t)
	stopSessionAtEnd(t, state)
	cli(t, state, "", exitOK, "workflows", "off")

	id := detachedID(t, t.TempDir(), state, model.URL(), "hello")
	if sessionPID(t, state) == 0 {
		t.Fatal("run --detach left no session running")
	}
	out, errOut, code := vouchExec(t, state, "runs", "show", id, "--follow")
	if code != 0 || !strings.Contains(out, "Plain and detached.") || !strings.Contains(out, "run "+id+" done") {
		t.Fatalf("runs show --follow: exit %d\nstdout %s\nstderr %s\nwant the answer and the run done", code, out, errOut)
	}
}

// writeThenSay is a model that writes notes.md with fs_write, then says
// answer.
func writeThenSay(answer string) agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words(answer)},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"notes.md","content":"kept\n"}`)}},
	}}
}

// sessionWaiting is `vouch sessions --json`'s count of approvals waiting
// and of runs in flight.
func sessionWaiting(t *testing.T, dir, state string) (waiting, running int) {
	t.Helper()
	out, errOut, code := vouchIn(t, dir, state, "sessions", "--json")
	var list []sessiond.Info
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions --json: exit %d, stdout %q, stderr %q; want one session", code, out, errOut)
	}
	return list[0].Waiting, list[0].Running
}

// TestRunDetachPlainWaitsForApproval (SPEC K4, H6, D4; issue 15): a plain
// detached run whose model writes a file waits in the session's approvals
// inbox: `vouch sessions --json` counts one approval waiting and the run
// in flight, and nothing is written to the workspace. The switch is on
// (as on a fresh state directory), with no profile named "default": the
// run is plain too.
func TestRunDetachPlainWaitsForApproval(t *testing.T) {
	model := agenttest.New(writeThenSay("Written."), agenttest.WithModels("m"))
	defer model.Close()
	state, workspace := shortState(t), t.TempDir()
	stopSessionAtEnd(t, state)

	detachedID(t, workspace, state, model.URL(), "write the notes")
	waitSessionCounts(t, workspace, state, 1, 1)
	if _, err := os.Stat(filepath.Join(workspace, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("the call ran with nobody to approve it: %v", err)
	}
}

// waitSessionCounts asks the session until `vouch sessions --json` counts
// waiting approvals and running runs in flight: a detached run's call
// reaches the inbox once the model's turn has streamed.
func waitSessionCounts(t *testing.T, dir, state string, waiting, running int) {
	t.Helper()
	deadline := time.Now().Add(e2eTimeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		w, r := sessionWaiting(t, dir, state)
		if w == waiting && r == running {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session counts %d approvals waiting and %d runs in flight; want %d and %d", w, r, waiting, running)
		}
		<-tick.C
	}
}

// TestE2ERunDetachPlainAnsweredInInbox (SPEC K4, H6, D4; issue 15): the
// call of a plain detached run waits until the person attaches with
// `vouch` in tmux, opens it from the approvals inbox and allows it after
// the pane's grace; the run then writes and ends, and `vouch runs show ID
// --follow` exits 0 with its answer.
func TestE2ERunDetachPlainAnsweredInInbox(t *testing.T) {
	bin := buildVouch(t)
	model := agenttest.New(writeThenSay("Written."), agenttest.WithModels("m"))
	defer model.Close()
	state, workspace := shortState(t), t.TempDir()
	stopSessionAtEnd(t, state)

	id := detachedID(t, workspace, state, model.URL(), "write the notes")
	waitSessionCounts(t, workspace, state, 1, 1)
	s := newTmux(t, 80, 24, fmt.Sprintf("cd %s && %s --state-dir %s --model-url %s", workspace, bin, state, model.URL()))
	pane := s.waitFor("the waiting approval", func(p string) bool {
		return strings.Contains(p, "Approvals inbox") || strings.Contains(p, "approval waiting")
	})
	if !strings.Contains(pane, "Approvals inbox") {
		s.keys("C-e")
	}
	s.waitText("write the notes")
	s.keys("Enter")
	s.waitText("+kept")
	if _, err := os.Stat(filepath.Join(workspace, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("the call ran before it was answered: %v", err)
	}
	s.answerPane("a")
	s.waitText("Nothing waits for you.")
	out, errOut, code := vouchIn(t, workspace, state, "runs", "show", id, "--follow")
	if code != 0 || !strings.Contains(out, "Written.") || !strings.Contains(out, "run "+id+" done") {
		t.Fatalf("runs show --follow: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if got, err := os.ReadFile(filepath.Join(workspace, "notes.md")); err != nil || string(got) != "kept\n" {
		t.Fatalf("after allowing, notes.md = %q, %v", got, err)
	}
}

// TestRunDetachProfileErrors (SPEC H1, M; issue 15): a named profile
// still needs the Agent Workflows switch and must exist; each refusal is
// one sentence saying what to do, with exit 1.
func TestRunDetachProfileErrors(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("unused")}}}, agenttest.WithModels("m"))
	defer model.Close()
	off := shortState(t)
	stopSessionAtEnd(t, off)
	cli(t, off, "", exitOK, "workflows", "off")
	_, errOut, code := vouchExec(t, off, "--model-url", model.URL(), "run", "--detach", "--profile", "nope", "hello")
	if code != 1 || !strings.Contains(errOut, "the Agent Workflows switch is off") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("--profile with the switch off: exit %d, stderr %q; want 1 and one sentence about the switch", code, errOut)
	}

	on := shortState(t)
	stopSessionAtEnd(t, on)
	_, errOut, code = vouchExec(t, on, "--model-url", model.URL(), "run", "--detach", "--profile", "nope", "hello")
	if code != 1 || !strings.Contains(errOut, `no profile is named "nope"`) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("--profile nope: exit %d, stderr %q; want 1 and one sentence naming the profile", code, errOut)
	}
}
