package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/host"
	"vouch/internal/sessiond"
)

// sessionProc is a session process of the built binary, started as
// `vouch` starts one, ready when it said so over its pipe.
type sessionProc struct {
	cmd  *exec.Cmd
	done chan error
}

func startSessionProc(t *testing.T, state string, args ...string) *sessionProc {
	t.Helper()
	bin := buildVouch(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	cmd := exec.Command(bin, append(append([]string{"--state-dir", state}, args...), "session", "serve", "--ready-fd", "3")...)
	cmd.Dir = t.TempDir()
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	p := &sessionProc{cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	if err := r.SetReadDeadline(time.Now().Add(e2eTimeout)); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("the session said %q, %v; want ready", line, err)
	}
	return p
}

// ended waits for the session process to exit.
func (p *sessionProc) ended(t *testing.T) {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
	case <-time.After(e2eTimeout):
		t.Fatalf("the session process did not exit within %s", e2eTimeout)
	}
}

// TestSessionsJSON: `vouch sessions --json` lists the session of the
// state dir, asked over its socket while it holds the database; none is
// an empty list.
func TestSessionsJSON(t *testing.T) {
	state := shortState(t)
	out, _ := cli(t, state, "", exitOK, "sessions", "--json")
	if strings.TrimSpace(out) != "[]" {
		t.Fatalf("sessions --json with none = %s, want []", out)
	}
	p := startSessionProc(t, state)
	out, _ = cli(t, state, "", exitOK, "sessions", "--json")
	var got []sessiond.Info
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("sessions --json: %v\n%s", err, out)
	}
	if len(got) != 1 || got[0].Pid != p.cmd.Process.Pid || got[0].StateDir != state || got[0].Clients != 0 || got[0].Since == "" || got[0].Workspace == "" {
		t.Fatalf("sessions = %+v, want the one session (pid %d) on %s", got, p.cmd.Process.Pid, state)
	}
	out, _ = cli(t, state, "", exitOK, "sessions")
	if !strings.Contains(out, "pid ") || !strings.Contains(out, "clients 0") {
		t.Fatalf("sessions said:\n%s", out)
	}
	// vouch doctor shows the session too, asked over the socket.
	out, _, _ = vouchExec(t, state, "--model-url", "http://127.0.0.1:9/v1", "doctor", "--json")
	var doc struct {
		Session *sessiond.Info `json:"session"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Session == nil || doc.Session.Pid != p.cmd.Process.Pid {
		t.Fatalf("doctor --json session = %+v (%v); want pid %d\n%s", doc.Session, err, p.cmd.Process.Pid, out)
	}
	out, _, _ = vouchExec(t, state, "--model-url", "http://127.0.0.1:9/v1", "doctor")
	if !strings.Contains(out, "Session") || !strings.Contains(out, "pid") {
		t.Fatalf("doctor does not show the session:\n%s", out)
	}
}

// TestLockedHandOver (SPEC K1, K4): a command that finds the database
// held by an idle session asks it to exit and opens the database; a
// session with a terminal attached is busy, and the command says which
// session and how to reach it, without waiting for it.
func TestLockedHandOver(t *testing.T) {
	state := shortState(t)
	p := startSessionProc(t, state)
	conn, err := sessiond.Dial(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := sessiond.WriteJSON(conn, sessiond.KindHello, sessiond.Hello{Role: sessiond.RoleTerminal, Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	// The terminal is attached once the session sends it a frame.
	if _, _, err := sessiond.ReadFrame(conn); err != nil {
		t.Fatal(err)
	}
	_, errOut := cli(t, state, "", exitUnavailable, "runs", "--json")
	want := "the vouch session (pid " + strconv.Itoa(p.cmd.Process.Pid) + ") is using this database"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "vouch attach") {
		t.Fatalf("a busy session: stderr %q, want %q and vouch attach", errOut, want)
	}
	_ = conn.Close() // the terminal hangs up: the session is idle now
	// Each question is a round trip to the session; it sees the hang-up
	// within a few.
	deadline := time.Now().Add(e2eTimeout)
	for info, ok, err := sessionInfo(state); !ok || err != nil || info.Clients > 0; info, ok, err = sessionInfo(state) {
		if time.Now().After(deadline) {
			t.Fatalf("the session still counts the terminal: %+v, %v, %v", info, ok, err)
		}
	}

	cli(t, state, "", exitOK, "runs", "--json")
	p.ended(t)
}

// shortState is a state dir whose socket path fits sun_path (108 bytes).
func shortState(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "vs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// vouchExec runs the built binary on state and returns stdout, stderr and
// the exit code.
func vouchExec(t *testing.T, state string, args ...string) (string, string, int) {
	t.Helper()
	return vouchIn(t, t.TempDir(), state, args...)
}

// TestRunDetachFollow (SPEC K4, H6): `vouch run --detach` with no session
// running starts one, starts the run there and prints its ID; `vouch runs
// show ID --follow` streams its events until it ends and exits 0 for a
// run done.
func TestRunDetachFollow(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Detached and done.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	state := shortState(t)
	stopSessionAtEnd(t, state)
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", app.DefaultProfile, "--definition", "notes", "--model", "m")
	cli(t, state, "", exitOK, "workflows", "on")

	out, errOut, code := vouchExec(t, state, "--model-url", model.URL(), "run", "--detach", "say it")
	id := strings.TrimSpace(out)
	if code != 0 || id == "" || strings.Contains(id, " ") {
		t.Fatalf("run --detach: exit %d, stdout %q, stderr %q; want a run ID", code, out, errOut)
	}
	if sessionPID(t, state) == 0 {
		t.Fatal("run --detach left no session running")
	}
	out, errOut, code = vouchExec(t, state, "runs", "show", id, "--follow")
	if code != 0 || !strings.Contains(out, "run "+id+" done") {
		t.Fatalf("runs show --follow: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

// sessionInfo asks the session of state about itself, as `vouch
// sessions` does.
func sessionInfo(state string) (sessiond.Info, bool, error) {
	return host.Client{StateDir: state}.Info()
}
