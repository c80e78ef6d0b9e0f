package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

// Commands through the session (SPEC K5, M; issue 23 item 1): while the
// interface is open, every command runs on the session's application, the
// one writer of the database, and answers as it does without a session.

// chatAndRunModel writes notes.md (an approval) when asked to write the
// notes, holds a reply at gate when asked to be slow, and answers
// anything else.
func chatAndRunModel(t *testing.T, gate chan struct{}) *agenttest.Server {
	t.Helper()
	slow := append(agenttest.Words("Thinking "), agenttest.Wait(gate))
	slow = append(slow, agenttest.Words("done.")...)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Written.")},
		{Match: agenttest.LastUserContains("write the notes"), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"notes.md","content":"kept\n"}`)}},
		{Match: agenttest.LastUserContains("slowly"), Repeat: true, Steps: slow},
		{Repeat: true, Steps: agenttest.Words("Hello from the model.")},
	}}, agenttest.WithModels("m"))
	t.Cleanup(model.Close)
	return model
}

// TestE2ECommandsBesideTheInterface: a TUI with an approval waiting; beside
// it every command exits 0 with the session's data, settings set is what
// the session reads at once, vouch run answers in a conversation of its
// own; the approval still waits and nothing ran. Then a vouch run
// interrupted with ctrl+c is cancelled, and the session goes on.
func TestE2ECommandsBesideTheInterface(t *testing.T) {
	bin := buildVouch(t)
	gate := make(chan struct{})
	defer close(gate)
	model := chatAndRunModel(t, gate)
	state, workspace := shortState(t), t.TempDir()
	stopSessionAtEnd(t, state)
	s := newTmux(t, 100, 30, sessionVouch(bin, state, workspace, model))
	s.waitText("Ask anything")
	s.typeText("write the notes")
	s.keys("Enter")
	s.waitText(approvalTitle)
	pid := sessionPID(t, state)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"conversations"}, "write the notes"},
		{[]string{"tools"}, "builtin:fs_write"},
		{[]string{"runs"}, ""},
		{[]string{"server", "list"}, "no MCP servers"},
		{[]string{"policy", "list"}, "no rules"},
		{[]string{"skill", "list"}, "no skills installed"},
		{[]string{"settings", "set", "long-turn", "45s"}, "long-turn"},
		{[]string{"settings", "get", "long-turn"}, "45s"},
		{[]string{"--model-url", model.URL(), "--model", "m", "run", "say hello"}, "Hello from the model."},
	} {
		out, errOut, code := vouchIn(t, workspace, state, c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Fatalf("vouch %s beside the interface: exit %d, want 0 and %q\nstdout: %s\nstderr: %s", strings.Join(c.args, " "), code, c.want, out, errOut)
		}
	}
	if got := sessionPID(t, state); got != pid {
		t.Fatalf("the commands changed the session: pid %d, was %d", got, pid)
	}
	out, _, _ := vouchIn(t, workspace, state, "conversations")
	if !strings.Contains(out, "say hello") || !strings.Contains(out, "write the notes") {
		t.Fatalf("vouch run did not keep a conversation of its own beside the interface's:\n%s", out)
	}
	if pane := s.capture(); !strings.Contains(pane, approvalTitle) {
		t.Fatalf("the approval no longer waits after the commands:\n%s", pane)
	}
	if _, err := os.Stat(filepath.Join(workspace, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("the call ran while it waited: %v", err)
	}

	// ctrl+c in a command run through the session cancels it; the
	// session and its interface go on.
	cmdWin := newTmux(t, 100, 10, "cd "+workspace+" && "+bin+" --state-dir "+state+" --model-url "+model.URL()+" --model m run 'answer slowly'; echo exit=$?; sleep 60")
	cmdWin.waitText("Thinking")
	cmdWin.keys("C-c")
	cmdWin.waitText("exit=130")
	if got := sessionPID(t, state); got != pid {
		t.Fatalf("ctrl+c in a command ended the session: pid %d, was %d", got, pid)
	}
	s.waitFor("the interface to go on", func(p string) bool { return strings.Contains(p, approvalTitle) })
	deadline := time.Now().Add(e2eTimeout)
	for {
		out, _, _ = vouchIn(t, workspace, state, "runs")
		if strings.Contains(out, "cancelled") || strings.Contains(out, "interrupted") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the interrupted run is not recorded as cancelled:\n%s", out)
		}
		<-time.After(50 * time.Millisecond)
	}

	// The person answers: the call runs.
	s.answerPane("a")
	s.waitText("Written.")
	if got, err := os.ReadFile(filepath.Join(workspace, "notes.md")); err != nil || string(got) != "kept\n" {
		t.Fatalf("after allowing, notes.md = %q, %v", got, err)
	}
}

// TestE2ECommandsBothWays: every command gives the same stdout, stderr and
// exit status through a session as without one (SPEC K5, M): one table,
// run first beside an idle session, then with the session gone.
func TestE2ECommandsBothWays(t *testing.T) {
	bin := buildVouch(t)
	model := chatAndRunModel(t, nil)
	state, workspace := shortState(t), t.TempDir()
	stopSessionAtEnd(t, state)
	s := newTmux(t, 100, 30, sessionVouch(bin, state, workspace, model))
	s.waitText("Ask anything")
	s.keys(`C-\`) // detach: the session stays, idle
	s.waitFor("the client to end", func(string) bool { return !s.alive() })
	pid := sessionPID(t, state)
	if pid == 0 {
		t.Fatal("no session after detaching")
	}

	table := [][]string{
		{"conversations"}, {"conversations", "--json"},
		{"tools"}, {"tools", "--json"},
		{"runs"}, {"runs", "--json"},
		{"server", "list"}, {"server", "list", "--json"},
		{"policy", "list"}, {"policy", "list", "--json"},
		{"skill", "list"}, {"skill", "list", "--json"},
		{"settings"}, {"settings", "--json"}, {"settings", "get", "notify"},
		{"workflows", "status"}, {"profile", "list"}, {"definition", "list"},
		{"tools", "plan", "--context", "8192"},
		// Errors: the same sentence and exit code either way.
		{"skill", "remove", "nosuch"}, {"policy", "set", "mcp:nosuch:tool", "sometimes"},
		{"settings", "set", "long-turn", "forever"}, {"runs", "show", "nosuch"}, {"server", "test", "nosuch"},
		{"skill", "preview", "nosuch.zip"}, {"conversations", "--limit", "x"},
	}
	type result struct {
		out, errOut string
		code        int
	}
	through := make([]result, len(table))
	for i, args := range table {
		out, errOut, code := vouchIn(t, workspace, state, args...)
		through[i] = result{out, errOut, code}
	}
	if got := sessionPID(t, state); got != pid {
		t.Fatalf("the session changed while the commands ran through it: pid %d, was %d", got, pid)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(e2eTimeout)
	for sessionPID(t, state) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the session did not exit on SIGTERM")
		}
		<-time.After(20 * time.Millisecond)
	}
	for i, args := range table {
		out, errOut, code := vouchIn(t, workspace, state, args...)
		got := through[i]
		if got.code != code || got.out != out || got.errOut != errOut {
			t.Errorf("vouch %s differs through the session:\nthrough: exit %d\n%s%s\ndirect: exit %d\n%s%s",
				strings.Join(args, " "), got.code, got.out, got.errOut, code, out, errOut)
		}
	}
}
