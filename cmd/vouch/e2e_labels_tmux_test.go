package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestE2ETmuxToolLabel (issue 18 item 9) drives the built demo at 80x24 in
// tmux: after the approval pane of the demo server's lookup is answered,
// the transcript names the call "demo tools › lookup", never its
// mcp:<uuid>:lookup identity.
func TestE2ETmuxToolLabel(t *testing.T) {
	bin := buildVouch(t)
	s := newTmux(t, 80, 24, bin+" demo")
	s.waitText("Ask anything")
	s.run("send-keys", "-t", s.name, "-l", "please look up something on the server")
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitText("waiting for your approval")
	s.answerPane("d")
	pane := s.waitFor("the call in the transcript, named by its server's label", func(p string) bool {
		return strings.Contains(p, "demo tools › lookup") && !strings.Contains(p, "waiting for your approval")
	})
	if uuid := regexp.MustCompile(`mcp:[0-9a-f]{8}-`).FindString(pane); uuid != "" {
		t.Errorf("the transcript shows an identity (%s…):\n%s", uuid, pane)
	}
}
