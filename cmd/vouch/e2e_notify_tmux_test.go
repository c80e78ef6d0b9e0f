package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// The end-to-end tests of terminal notifications (SPEC L4; issue 15) run
// the built binary in a private tmux server and read, with pipe-pane, the
// raw bytes vouch wrote to its pane. They rely on tmux's default
// focus-events off (set explicitly): tmux then never reports focus to
// the program, which vouch takes as "not focused", so a waiting approval
// notifies. vouch asks tmux for allow-passthrough once at start, so the
// option is set before vouch starts: the pane's command waits on a tmux
// channel ("wait-for") that the test signals once the options are set.

// notifyTmux starts command in tmux at 80x24 with allow-passthrough as
// given, and pipe-pane appending the pane's output to the returned file.
func notifyTmux(t *testing.T, passthrough, command string) (*tmuxSession, string) {
	t.Helper()
	s := newTmux(t, 80, 24, "tmux wait-for vouch-go && exec "+command)
	out := filepath.Join(t.TempDir(), "pane.raw")
	s.run("set-option", "-g", "focus-events", "off")
	s.run("set-option", "-g", "allow-passthrough", passthrough)
	s.run("pipe-pane", "-o", "-t", s.name, "cat >> "+out)
	s.run("wait-for", "-S", "vouch-go")
	return s, out
}

// rawWaitFor polls the pipe-pane file until cond holds on its bytes.
func rawWaitFor(t *testing.T, file, what string, cond func([]byte) bool) []byte {
	t.Helper()
	deadline := time.Now().Add(e2eTimeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		b, err := os.ReadFile(file)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if cond(b) {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s in the pane's raw output; it holds:\n%q", e2eTimeout, what, tail(b, 2000))
		}
		<-tick.C
	}
}

func tail(b []byte, n int) []byte { return b[max(len(b)-n, 0):] }

// stringSeqs matches OSC, DCS and APC strings with their terminators.
var stringSeqs = regexp.MustCompile(`\x1b[\]P_][^\x07\x1b]*(\x07|\x1b\\)`)

// loneBells counts the BELs that end no escape string: the bell itself.
func loneBells(b []byte) int {
	return bytes.Count(stringSeqs.ReplaceAll(b, nil), []byte("\a"))
}

// TestE2ETmuxNotifyPassthrough: vouch demo in tmux with allow-passthrough
// on writes the approval's OSC 9 (TERM_PROGRAM=iTerm.app) wrapped for tmux,
// every ESC doubled, once, between frames; with passthrough off, the bell
// and no sequence.
func TestE2ETmuxNotifyPassthrough(t *testing.T) {
	bin := buildVouch(t)
	const want = "\x1bPtmux;\x1b\x1b]9;vouch: approval waiting: built-in › fs_write\a\x1b\\"
	for _, tc := range []struct{ passthrough string }{{"on"}, {"off"}} {
		t.Run("passthrough_"+tc.passthrough, func(t *testing.T) {
			tmp := t.TempDir()
			s, raw := notifyTmux(t, tc.passthrough, "env TMPDIR="+tmp+" TERM_PROGRAM=iTerm.app "+bin+" demo")
			s.waitText("Ask anything")
			before := rawWaitFor(t, raw, "the first frame", func(b []byte) bool { return len(b) > 0 })
			if bytes.Contains(before, []byte("\x1bPtmux;")) || loneBells(before) != 0 {
				t.Fatalf("a notification before anything waited: %q", before)
			}
			s.typeText("write a note")
			s.keys("Enter")
			s.waitText(approvalTitle)
			if tc.passthrough == "on" {
				got := rawWaitFor(t, raw, "the wrapped OSC 9", func(b []byte) bool { return bytes.Contains(b, []byte(want)) })
				if n := bytes.Count(got, []byte("\x1bPtmux;")); n != 1 {
					t.Errorf("%d passthrough sequences, want 1", n)
				}
				return
			}
			got := rawWaitFor(t, raw, "the bell", func(b []byte) bool { return loneBells(b) > 0 })
			if bytes.Contains(got, []byte("\x1bPtmux;")) || bytes.Contains(got, []byte("]9;")) {
				t.Errorf("passthrough off, yet a sequence was written: %q", tail(got, 400))
			}
			if n := loneBells(got); n != 1 {
				t.Errorf("%d bells, want 1", n)
			}
		})
	}
}

// hostileToolText is a tool name an MCP server may serve — no control
// character, so vouch lists it — made to end OSC 777's fields early and
// start a notification of its own.
const hostileToolText = "a;b]777;notify;pwned;x\\"

// TestE2ETmuxNotifyHostileTool: a call of a tool whose name carries
// ";" and "]777;notify;" waits for approval in plain vouch (a scripted
// model, a real MCP server); the notification, as OSC 777
// (TERM_PROGRAM=ghostty) through tmux, keeps exactly its three fields —
// the name's separators are gone — and is the only 777 on the wire.
func TestE2ETmuxNotifyHostileTool(t *testing.T) {
	bin := buildVouch(t)
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, HostileText: hostileToolText})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "odd tools", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "odd tools")
	out, _ := cli(t, state, "", exitOK, "tools", "--json")
	var rows []app.ToolRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
	wire := ""
	for _, r := range rows {
		if r.Name == "hostile_"+hostileToolText {
			wire = r.WireName
		}
	}
	if wire == "" {
		t.Fatalf("the hostile-named tool is not listed:\n%s", out)
	}
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: toolResults(1), Steps: agenttest.Words("Done.")},
		{Match: agenttest.Offers(wire), Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", wire, `{}`)}},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	t.Cleanup(model.Close)

	env := "env"
	for k, v := range cliEnv() {
		env += " " + k + "=" + v
	}
	s, raw := notifyTmux(t, "on", fmt.Sprintf("%s TERM_PROGRAM=ghostty %s --state-dir %s --model-url %s --model m", env, bin, state, model.URL()))
	s.waitText("Ask anything")
	s.typeText("use the odd tool")
	s.keys("Enter")
	s.waitText(approvalTitle)
	const want = "\x1bPtmux;\x1b\x1b]777;notify;vouch: approval waiting;odd tools › hostile_ab]777notifypwnedx\\\a\x1b\\"
	got := rawWaitFor(t, raw, "the wrapped OSC 777", func(b []byte) bool { return bytes.Contains(b, []byte("\x1bPtmux;")) })
	got = rawWaitFor(t, raw, "the whole notification", func(b []byte) bool { return bytes.Contains(b, []byte(want)) || len(b) > len(got)+4096 })
	if !bytes.Contains(got, []byte(want)) {
		i := bytes.Index(got, []byte("\x1bPtmux;"))
		t.Fatalf("the notification is not as wanted:\n got %q\nwant %q", got[i:min(i+len(want)+40, len(got))], want)
	}
	// The pane shows the name as text; only one OSC 777 starts with ESC.
	if n := bytes.Count(got, []byte("\x1b]777;")); n != 1 {
		t.Errorf("%d OSC 777 sequences on the wire, want 1 (the tool name started one of its own)", n)
	}
	if !strings.Contains(s.capture(), "]777;notify;pwned") {
		t.Errorf("the pane does not show the tool's name as text:\n%s", s.capture())
	}
}

// TestE2ETmuxNotifyLevelFromPage: the level picked on Settings › Notify
// applies at once — "bell" turns the approval's OSC 9 into a lone BEL,
// passthrough on — and is stored (SPEC L4).
func TestE2ETmuxNotifyLevelFromPage(t *testing.T) {
	bin := buildVouch(t)
	tmp := t.TempDir()
	s, raw := notifyTmux(t, "on", "env TMPDIR="+tmp+" TERM_PROGRAM=iTerm.app "+bin+" demo")
	s.waitText("Ask anything")
	s.openSettingsPage("Notify")
	s.waitText("● approvals")
	s.keys("Up")
	s.waitText("› ○ bell")
	s.keys("Enter")
	s.waitText("● bell")
	s.keys("Escape")
	s.waitFor("Settings to close", func(p string) bool { return !strings.Contains(p, "Settings ›") })
	s.typeText("write a note")
	s.keys("Enter")
	s.waitText(approvalTitle)
	got := rawWaitFor(t, raw, "the bell", func(b []byte) bool { return loneBells(b) > 0 })
	if bytes.Contains(got, []byte("\x1bPtmux;")) || bytes.Contains(got, []byte("]9;")) {
		t.Errorf("level bell, yet a sequence was written: %q", tail(got, 400))
	}
}
