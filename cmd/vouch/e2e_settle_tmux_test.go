package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// humanKeyGap paces the keys of TestE2ESettleTypeAhead like a person
// typing at 10 keys/s. It is pacing, not synchronisation: every wait below
// polls the pane (tmuxSession.waitFor).
const humanKeyGap = 100 * time.Millisecond

// approvalTitle is the approval pane's title.
const approvalTitle = "Tool call waiting for your approval"

// TestE2ESettleTypeAhead (SPEC D7) drives the built binary's demo at 80x24
// in tmux: send "write a note", then type the next sentence one key every
// 100 ms, starting before the approval pane appears and going on across
// its appearance. No key of the sentence answers the pane: the note file
// is untouched, the pane still waits and the input holds the whole
// sentence. A quiet d goes into the message too; after tab and a quiet
// moment, d denies.
func TestE2ESettleTypeAhead(t *testing.T) {
	bin := buildVouch(t)
	tmp := t.TempDir() // the demo's throwaway state and workspace go here
	s := newTmux(t, 80, 24, "env TMPDIR="+tmp+" "+bin+" demo")
	s.waitText("Ask anything")
	note := demoNote(t, tmp)
	before, err := os.ReadFile(note)
	if err != nil {
		t.Fatalf("read the demo's note before the run: %v", err)
	}

	s.typeText("write a note")
	s.keys("Enter")
	const sentence = "great thanks then tell me what it says and add the date"
	appeared := -1
	tick := time.NewTicker(humanKeyGap)
	defer tick.Stop()
	for i, r := range sentence {
		<-tick.C
		s.typeText(string(r))
		if appeared < 0 && strings.Contains(s.capture(), approvalTitle) {
			appeared = i
		}
	}
	if appeared < 0 || appeared > len(sentence)-20 {
		t.Fatalf("the pane appeared at key %d of %d; the case needs it to appear early while typing", appeared, len(sentence))
	}

	pane := s.waitText("› " + sentence)
	for _, bad := range []string{"(allowed once)", "Allowed once", "(denied)", "note ›"} {
		if strings.Contains(pane, bad) {
			t.Fatalf("a key of the sentence answered the pane (%q on screen):\n%s", bad, pane)
		}
	}
	if !strings.Contains(pane, approvalTitle) {
		t.Fatalf("the pane no longer waits:\n%s", pane)
	}
	if after, err := os.ReadFile(note); err != nil || string(after) != string(before) {
		t.Fatalf("the note changed while the pane waited (err %v):\n%s", err, after)
	}

	// The keyboard is the message's (SPEC D7): a quiet d goes there too.
	if !strings.Contains(pane, "your keys go to your message · tab to answer") {
		t.Fatalf("the pane does not say where the keys go:\n%s", pane)
	}
	<-time.After(time.Second)
	s.keys("d")
	s.waitText("› " + sentence + "d")
	if pane := s.capture(); !strings.Contains(pane, approvalTitle) || strings.Contains(pane, "(denied)") {
		t.Fatalf("a quiet d answered the pane:\n%s", pane)
	}
	// Tab moves the keyboard to the pane; once quiet, d denies.
	s.keys("Tab")
	s.waitFor("the pane's keys to act", func(p string) bool {
		return strings.Contains(p, approvalTitle) && !strings.Contains(p, "keys active in a moment") && !strings.Contains(p, "tab to answer")
	})
	s.keys("d")
	s.waitFor("the call to be denied", func(p string) bool {
		return !strings.Contains(p, approvalTitle) && strings.Contains(p, "(denied)")
	})
	if pane := s.capture(); !strings.Contains(pane, "› "+sentence+"d") {
		t.Errorf("the sentence left the input after the deny:\n%s", pane)
	}
	if after, err := os.ReadFile(note); err != nil || string(after) != string(before) {
		t.Fatalf("the note changed after a deny (err %v):\n%s", err, after)
	}
}

// demoNote is the path of the running demo's notes/todo.md under tmp, the
// TMPDIR the demo made its workspace in.
func demoNote(t *testing.T, tmp string) string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(tmp, "vouch-demo-*", "workspace", "notes", "todo.md"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("find the demo's workspace under %s: %v, %d matches; the demo makes it with os.MkdirTemp", tmp, err, len(matches))
	}
	return matches[0]
}
