package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"vouch/internal/e2epeer"
)

// TestE2ERoughEdgesTmux (issue 28 items 1, 3, 7, 11) drives the built
// binary in tmux at 80x24 with the model server down, as a newcomer would:
//   - enter says the server does not answer, at its address, not "no model
//     is chosen", and ctrl+o shows that reason whole, URL included;
//   - alt+t, alt+e and alt+x over tmux (ESC then the letter) put nothing
//     in the input; alt+t and t on Settings › Tools open the tool selector;
//   - "Input cleared; ctrl+c again quits." goes with the next key;
//   - at 50x12 typing and enter do nothing, the notice wraps at words.
func TestE2ERoughEdgesTmux(t *testing.T) {
	bin := buildVouch(t)
	addr := fmt.Sprintf("127.0.0.1:%d", e2epeer.FreePort(t)) // nothing listens there
	s := newTmux(t, 80, 24, fmt.Sprintf("%s --state-dir %s --model-url http://%s/v1", bin, t.TempDir(), addr))
	s.waitText("Ask anything")

	s.typeText("hello")
	s.keys("Enter")
	p := s.waitText(addr)
	if strings.Contains(p, "no model is chosen") {
		t.Errorf("with the server down, enter blames the model choice:\n%s", p)
	}
	s.keys("C-o")
	s.waitText("Select a model")
	s.waitFor("the picker's reason whole", func(p string) bool {
		return strings.Contains(strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(p)), " "), "http://"+addr+"/v1")
	})
	// The picker settles before its keys act (SPEC D7), and a key inside
	// the settle period starts it again: a person presses esc, sees the
	// picker stay, and presses once more after a pause.
	closed := func() bool { return !strings.Contains(s.capture(), "Select a model") }
	for try := 0; try < 5 && !closed(); try++ {
		s.keys("Escape")
		tick := time.NewTicker(50 * time.Millisecond)
		for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end) && !closed(); {
			<-tick.C
		}
		tick.Stop()
	}
	if !closed() {
		t.Fatalf("esc did not close the picker:\n%s", s.capture())
	}

	s.keys("C-c") // clears "hello"
	s.waitText("Input cleared; ctrl+c again quits.")
	for _, k := range []string{"M-e", "M-x"} {
		s.keys(k)
	}
	s.waitText("alt+x does nothing here")
	if p := s.capture(); strings.Contains(p, "› e") || strings.Contains(p, "› x") || strings.Contains(p, "Input cleared") {
		t.Errorf("an alt key typed its letter, or the cleared notice stayed:\n%s", p)
	}
	s.keys("M-t") // the tool selector, at any time
	s.waitText("Tools for this conversation")
	for try := 0; try < 5 && strings.Contains(s.capture(), "Tools for this conversation"); try++ {
		s.keys("Escape")
		tick := time.NewTicker(50 * time.Millisecond)
		for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end) && strings.Contains(s.capture(), "Tools for this conversation"); {
			<-tick.C
		}
		tick.Stop()
	}
	s.openSettingsPage("Tools") // and from Settings › Tools
	s.keys("t")
	s.waitText("Tools for this conversation")
	s.pressUntil("Escape", "Settings again", func(p string) bool { return !strings.Contains(p, "Tools for this conversation") })
	s.pressUntil("Escape", "the chat", func(p string) bool { return !strings.Contains(p, "Settings") })

	s.run("resize-window", "-t", s.name, "-x", "50", "-y", "12")
	s.waitText("Terminal too small: 50x12;")
	s.typeText("unseen")
	s.keys("Enter")
	if p := s.capture(); !strings.Contains(p, "vouch needs") || strings.Contains(p, "needs 60x1…") {
		t.Errorf("the too-small notice is cut:\n%s", p)
	}
	s.run("resize-window", "-t", s.name, "-x", "80", "-y", "24")
	p = s.waitText("Ask anything")
	if strings.Contains(p, "unseen") {
		t.Errorf("keys typed below the minimum size reached the input:\n%s", p)
	}
}
