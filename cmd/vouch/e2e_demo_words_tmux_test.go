package main

import (
	"strings"
	"testing"
)

// TestE2EDemoInAPersonsWords (issue 28 item 22) drives the built binary's
// `vouch demo` in tmux at 80x24 as the README suggests, in a person's own
// words: "add a line to the notes" in the chat shows the write's diff in
// the approval pane, and the same task given to the demo profile with g
// puts its write in the approvals inbox, which the status line counts.
func TestE2EDemoInAPersonsWords(t *testing.T) {
	bin := buildVouch(t)
	s := newTmux(t, 80, 24, bin+" demo")
	s.waitText("Ask anything")
	s.typeText("add a line to the notes")
	s.keys("Enter")
	s.waitFor("the write's approval with its diff", func(p string) bool {
		return strings.Contains(p, "waiting for your approval") && strings.Contains(p, "fs_write") && strings.Contains(p, "+- read what vouch asks before saying yes")
	})
	s.answerPane("d")
	s.waitText("You denied the write")

	s.openSettingsPage("Profiles")
	s.waitText("notes")
	s.keys("g")
	s.waitText("enter start")
	s.typeText("jot down what we decided")
	s.keys("Enter")
	s.waitText("1 approval waiting (ctrl+e)")
	s.run("send-keys", "-t", s.name, "C-c")
	s.run("send-keys", "-t", s.name, "C-c")
}
