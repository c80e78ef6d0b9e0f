package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"vouch/internal/e2epeer"
)

// Who the keyboard belongs to (SPEC D7), through the built binary's demo
// in tmux at a person's speed. A person sends "write a note" and goes on
// typing while the reply streams; the file write's approval pane appears
// mid-sentence. They pause to think between words, as people do, and each
// word after a pause begins with one of the pane's keys. Nothing decides:
// the note is untouched, the pane waits, the input holds the sentence.
// Then tab, a quiet moment, and a allows. Keys are paced by a ticker
// (pacing, not synchronisation: every wait polls the pane).

// corpusWords are typed after the pane appeared, each after a pause;
// each begins with a key of the pane (a, d, n, y, c, v, space, enter).
var corpusWords = []string{"actually ", "do ", "now ", "yes ", "can ", "very ", " more ", "\r", "then"}

// keyboardDemo starts the demo at 120x30 (the sentence fits on one input
// line) with focus reporting on, and returns the session and the note the
// pane's write would change, with its content before.
func keyboardDemo(t *testing.T) (*tmuxSession, string, string) {
	t.Helper()
	bin := buildVouch(t)
	tmp := t.TempDir()
	s := newTmux(t, 120, 30, "env TMPDIR="+tmp+" "+bin+" demo")
	s.run("set-option", "-g", "focus-events", "on")
	s.waitText("Ask anything")
	note := demoNote(t, tmp)
	before, err := os.ReadFile(note)
	if err != nil {
		t.Fatalf("read the demo's note: %v", err)
	}
	return s, note, string(before)
}

// typePaced types text one key per gap; "\r" is enter.
func (s *tmuxSession) typePaced(gap time.Duration, text string) {
	s.t.Helper()
	tick := time.NewTicker(gap)
	defer tick.Stop()
	for _, r := range text {
		<-tick.C
		if r == '\r' {
			s.keys("Enter")
		} else {
			s.typeText(string(r))
		}
	}
}

// typeUntilPane types filler words one key per gap until the approval
// pane is on screen, and returns what it typed.
func (s *tmuxSession) typeUntilPane(gap time.Duration) string {
	s.t.Helper()
	typed := ""
	tick := time.NewTicker(gap)
	defer tick.Stop()
	deadline := time.Now().Add(e2eTimeout)
	const filler = "ok so "
	for i := 0; !strings.Contains(s.capture(), approvalTitle); i++ {
		if time.Now().After(deadline) {
			s.t.Fatalf("the pane did not appear while typing:\n%s", s.capture())
		}
		<-tick.C
		c := filler[i%len(filler) : i%len(filler)+1]
		s.typeText(c)
		typed += c
	}
	return typed
}

// assertUndecided checks that the pane still waits, the note is as it was
// and the input holds want.
func (s *tmuxSession) assertUndecided(note, before, want string) {
	s.t.Helper()
	pane := s.waitText("› " + want)
	for _, bad := range []string{"(allowed once)", "Allowed once", "(denied)", "Denied:", "note ›"} {
		if strings.Contains(pane, bad) {
			s.t.Fatalf("a key of the sentence answered the pane (%q on screen):\n%s", bad, pane)
		}
	}
	if !strings.Contains(pane, approvalTitle) {
		s.t.Fatalf("the pane no longer waits:\n%s", pane)
	}
	if after, err := os.ReadFile(note); err != nil || string(after) != before {
		s.t.Fatalf("the note changed while the pane waited (err %v)", err)
	}
}

// tabAndAllow moves the keyboard to the pane, waits for its keys to act
// and allows; the write then happens.
func (s *tmuxSession) tabAndAllow(note, before string) {
	s.t.Helper()
	s.keys("Tab")
	s.waitFor("the pane's keys to act after tab", func(p string) bool {
		return strings.Contains(p, approvalTitle) && !strings.Contains(p, "keys active in a moment") && !strings.Contains(p, "tab to answer")
	})
	s.keys("a")
	s.waitText("(allowed once)")
	s.waitFor("the note to be written", func(string) bool {
		after, err := os.ReadFile(note)
		return err == nil && string(after) != before
	})
}

// TestE2EKeyboardCorpus: sentences at 5, 10 and 15 keys/s with thinking
// pauses of 0.5, 0.7, 1.5, 3 and 5 s between words (each rate takes the
// pauses in another order, so each key meets several pauses) decide
// nothing; tab, quiet, a allows. A slow typist (2 keys/s) decides nothing.
func TestE2EKeyboardCorpus(t *testing.T) {
	pauses := []time.Duration{500 * time.Millisecond, 700 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 5 * time.Second}
	for i, rate := range []int{5, 10, 15, 2} {
		t.Run(fmt.Sprintf("%dkeys", rate), func(t *testing.T) {
			t.Parallel()
			gap := time.Second / time.Duration(rate)
			s, note, before := keyboardDemo(t)
			s.typeText("write a note")
			s.keys("Enter")
			want := s.typeUntilPane(gap)
			s.typePaced(gap, "thanks ")
			want += "thanks "
			for j, w := range corpusWords {
				if rate != 2 { // the slow typist types on without pauses
					<-time.After(pauses[(i+j)%len(pauses)])
				}
				s.typePaced(gap, w)
				want += strings.ReplaceAll(w, "\r", "")
			}
			s.assertUndecided(note, before, want)
			if !strings.Contains(s.capture(), "your keys go to your message · tab to answer") {
				t.Errorf("the pane does not say where the keys go:\n%s", s.capture())
			}
			s.tabAndAllow(note, before)
		})
	}
}

// TestE2EKeyboardIdleOneKey: a person who was not typing sees the pane,
// waits 1.5 s and presses a: it allows (the common case stays one key).
func TestE2EKeyboardIdleOneKey(t *testing.T) {
	s, note, before := keyboardDemo(t)
	s.typeText("write a note")
	s.keys("Enter")
	s.waitText(approvalTitle)
	<-time.After(1500 * time.Millisecond)
	s.keys("a")
	s.waitText("(allowed once)")
	s.waitFor("the note to be written", func(string) bool {
		after, err := os.ReadFile(note)
		return err == nil && string(after) != before
	})
}

// TestE2EKeyboardPaste: a bracketed paste of "a⏎" on the settled pane of
// an idle person decides nothing: it is text in the input.
func TestE2EKeyboardPaste(t *testing.T) {
	s, note, before := keyboardDemo(t)
	s.typeText("write a note")
	s.keys("Enter")
	s.waitFor("the pane's keys to act", func(p string) bool {
		return strings.Contains(p, approvalTitle) && !strings.Contains(p, "keys active in a moment")
	})
	s.run("set-buffer", "a\n")
	s.run("paste-buffer", "-p", "-t", s.name)
	s.waitText("tab to answer")
	<-time.After(1500 * time.Millisecond)
	s.assertUndecided(note, before, "a")
	s.tabAndAllow(note, before)
}

// TestE2EKeyboardOtherWindow: the person types in another tmux window
// while the pane appears unseen, then switches back mid-sentence and
// types on, with a pause: nothing decides (focus-in counts as having been
// elsewhere).
func TestE2EKeyboardOtherWindow(t *testing.T) {
	s, note, before := keyboardDemo(t)
	s.attachFocusedClient()
	s.typeText("write a note")
	s.keys("Enter")
	s.run("new-window", "-t", s.name+":", "cat")
	s.typePaced(100*time.Millisecond, "elsewhere, an email ")
	// vouch's window, unseen, shows the pane meanwhile.
	s.waitFor("the pane in the other window", func(string) bool {
		out, err := s.captureWindow(0)
		return err == nil && strings.Contains(out, approvalTitle)
	})
	<-time.After(2 * time.Second) // it settled long ago, unseen
	s.run("select-window", "-t", s.name+":0")
	s.typePaced(100*time.Millisecond, "nd then")
	<-time.After(1500 * time.Millisecond)
	s.typePaced(100*time.Millisecond, " actually do")
	s.assertUndecided(note, before, "nd then actually do")
	s.tabAndAllow(note, before)
}

// attachFocusedClient attaches a client to the session on a pty of its
// own (script(1)), as a person's terminal is: tmux reports focus to the
// panes only while a focused client is attached. The client's terminal
// has the window's size and tmux draws no status line, so the window
// keeps its size (window-size manual would do, but new-window then
// crashes tmux 3.3a).
func (s *tmuxSession) attachFocusedClient() {
	s.t.Helper()
	script, err := e2epeer.Command("script", "apt-get install bsdutils")
	e2epeer.Require(s.t, err)
	s.run("set-option", "-g", "status", "off")
	cols, rows := strings.TrimSpace(s.run("display-message", "-p", "-t", s.name, "#{window_width}")), strings.TrimSpace(s.run("display-message", "-p", "-t", s.name, "#{window_height}"))
	cmd := exec.Command(script, "-q", "-c", "stty cols "+cols+" rows "+rows+"; tmux -S "+s.sock+" attach -t "+s.name, os.DevNull)
	stdin, err := cmd.StdinPipe() // held open: the client lives until cleanup
	if err != nil {
		s.t.Fatalf("a pipe for the client: %v", err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("attach a client with script: %v", err)
	}
	s.t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	s.waitFor("a focused client", func(string) bool {
		return strings.Contains(s.run("list-clients"), "focused")
	})
}

// captureWindow captures window i of the session.
func (s *tmuxSession) captureWindow(i int) (string, error) {
	out, err := exec.Command("tmux", "-S", s.sock, "capture-pane", "-p", "-t", fmt.Sprintf("%s:%d", s.name, i)).Output()
	return string(out), err
}
