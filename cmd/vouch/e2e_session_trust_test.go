package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"vouch/internal/sessiond"
	"vouch/store"
)

// plantEnv makes the test binary the other user's planted socket: it
// listens on the session socket of the directory it names, says "ready",
// and answers every connection with what a hostile session would send —
// escape sequences as output, a forged description, a run line — and
// prints how many bytes each connection sent it ("got N").
const plantEnv = "VOUCH_TEST_PLANTED_SOCKET"

func init() {
	if dir := os.Getenv(plantEnv); dir != "" {
		os.Exit(plantedSocket(dir))
	}
}

// plantedText is a clipboard write, a window title and a screen clear.
const plantedText = "\x1b]52;c;aHVudGVyMg==\a\x1b]0;pwned\a\x1b[2Jforged"

func plantedSocket(dir string) int {
	path := sessiond.SocketPath(dir)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		fmt.Println("listen:", err)
		return 1
	}
	if err := os.Chmod(path, 0o777); err != nil {
		fmt.Println("chmod:", err)
		return 1
	}
	fmt.Println("ready")
	var out sync.Mutex
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			return 1
		}
		go func() {
			_ = sessiond.WriteFrame(c, sessiond.KindOutput, []byte(plantedText))
			_ = sessiond.WriteJSON(c, sessiond.KindReply, sessiond.Reply{
				Info: &sessiond.Info{Pid: 1, StateDir: plantedText, Workspace: plantedText}, RunID: "r1", Line: plantedText, Done: true,
			})
			n, _ := io.Copy(io.Discard, c)
			out.Lock()
			fmt.Printf("got %d\n", n)
			out.Unlock()
		}()
	}
}

// startPlanted runs plantedSocket as uid 65534 on state (made writable by
// all for it) and returns its output lines as they come.
func startPlanted(t *testing.T, state string) <-chan string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	binDir := shortState(t)
	bin := filepath.Join(binDir, "planted")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, mode := range map[string]os.FileMode{binDir: 0o755, state: 0o1777} {
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin)
	cmd.Env = []string{plantEnv + "=" + state}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if l := <-lines; l != "ready" {
		t.Fatalf("the planted socket said %q", l)
	}
	return lines
}

// TestE2ESessionPlantedSocketRefused (SPEC K4; issue 23 item 4): a socket
// planted by uid 65534 — in a shared state directory, or made to look
// like ours in our own directory — is refused by every client command:
// `vouch`, `vouch attach`, `sessions`, `doctor`, `run --detach`, `runs show
// --follow` and the hand-over a command asks for when the database is
// locked. Each says one sentence naming the path, sends nothing (the
// planted socket got 0 bytes), and draws nothing of what it sent.
func TestE2ESessionPlantedSocketRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("planting a socket as uid 65534 needs root")
	}
	bin := buildVouch(t)
	for _, tc := range []struct {
		name string
		// after makes the directory what the victim has once the socket
		// is planted; want is in every refusal.
		after func(t *testing.T, state string)
		want  string
	}{
		{"shared state dir", func(*testing.T, string) {}, "can be written by other users"},
		{"our dir, their process", func(t *testing.T, state string) {
			if err := os.Lchown(sessiond.SocketPath(state), 0, 0); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(state, 0o700); err != nil {
				t.Fatal(err)
			}
		}, "the process answering on it runs as uid 65534"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := shortState(t)
			lines := startPlanted(t, state)
			tc.after(t, state)
			assertClean := func(what, out string) {
				t.Helper()
				if strings.ContainsAny(out, "\x1b\a") || strings.Contains(out, "forged") || strings.Contains(out, "aHVudGVy") {
					t.Fatalf("%s drew what the planted socket sent: %q", what, out)
				}
				if !strings.Contains(out, state) || !strings.Contains(out, tc.want) {
					t.Fatalf("%s said %q, want one sentence naming %s with %q", what, out, state, tc.want)
				}
			}
			for _, args := range [][]string{
				{"sessions"}, {"sessions", "--json"}, {"doctor", "--model-url", "http://127.0.0.1:1/v1"},
				{"run", "--detach", "type hunter2-secret"}, {"runs", "show", "r1", "--follow"},
			} {
				out, errOut, code := vouchExec(t, state, args...)
				what := "vouch " + strings.Join(args, " ")
				if code == 0 && args[0] != "doctor" {
					t.Fatalf("%s exited 0 on a planted socket: %q %q", what, out, errOut)
				}
				assertClean(what, out+errOut)
				t.Logf("%s: exit %d: %s", what, code, strings.TrimSpace(errOut))
			}
			if tc.name == "our dir, their process" {
				// The hand-over: a command that finds the database locked
				// asks the session to let it go.
				db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				out, errOut, code := vouchExec(t, state, "conversations")
				_ = db.Close()
				if code == 0 {
					t.Fatalf("vouch conversations beside a locked database: exit 0: %q", out)
				}
				assertClean("the hand-over", out+errOut)
			}
			for _, sub := range []string{"", " attach"} {
				w := newTmux(t, 80, 24, fmt.Sprintf("%s --state-dir %s%s; echo exit=$?; sleep 60", bin, state, sub))
				w.waitText("exit=")
				pane := w.run("capture-pane", "-p", "-J", "-t", w.name) // wrapped lines joined
				assertClean("vouch"+sub, pane)
				if strings.Contains(pane, "exit=0") {
					t.Fatalf("vouch%s exited 0 on a planted socket:\n%s", sub, pane)
				}
				if title := w.run("display-message", "-p", "-t", w.name, "#{pane_title}"); strings.Contains(title, "pwned") {
					t.Fatalf("vouch%s let the planted socket set the title", sub)
				}
			}
			conns := 0
			for done := false; !done; {
				select {
				case l := <-lines:
					if l != "got 0" {
						t.Fatalf("the planted socket: %q, want that it got nothing", l)
					}
					conns++
				default:
					done = true
				}
			}
			t.Logf("%d connection(s) reached the planted socket, each sent nothing", conns)
		})
	}
}
