package main

import (
	"encoding/json"
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
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Written.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"notes.md","content":"kept\n"}`)}},
	}}, agenttest.WithModels("m"))
	defer model.Close()
	state, workspace := shortState(t), t.TempDir()
	stopSessionAtEnd(t, state)

	detachedID(t, workspace, state, model.URL(), "write the notes")
	// The call reaches the inbox once the model's turn has streamed: the
	// session is asked until it counts it.
	deadline := time.Now().Add(e2eTimeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		waiting, running := sessionWaiting(t, workspace, state)
		if waiting == 1 && running == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session counts %d approvals waiting and %d runs in flight; want 1 and 1", waiting, running)
		}
		<-tick.C
	}
	if _, err := os.Stat(filepath.Join(workspace, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("the call ran with nobody to approve it: %v", err)
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
