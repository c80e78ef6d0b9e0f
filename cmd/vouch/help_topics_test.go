package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"vouch/docs"
)

// TestHelpTopics (issue 28 item 23): through run, 'vouch help TOPIC'
// prints the topic's page of docs/ byte for byte on stdout, exit 0;
// 'vouch help' lists every topic after the commands; 'vouch help COMMAND'
// prints the command's usage; no topic is named as a command is; and an
// unknown topic is one sentence naming the nearest topic, exit 2.
func TestHelpTopics(t *testing.T) {
	state := t.TempDir()
	for _, topic := range docs.Topics() {
		page, err := os.ReadFile("../../docs/" + topic.File)
		if err != nil {
			t.Fatal(err)
		}
		out, errOut := cli(t, state, "", exitOK, "help", topic.Name)
		if out != string(page) || errOut != "" {
			t.Errorf("vouch help %s: stdout is not docs/%s (%d bytes, want %d), stderr %q", topic.Name, topic.File, len(out), len(page), errOut)
		}
		for _, c := range commands() {
			if c.name == topic.Name {
				t.Errorf("topic %s is named as a command; vouch help %s would print the command's usage", topic.Name, c.name)
			}
		}
	}

	out, _ := cli(t, state, "", exitOK, "help")
	commandsAt, topicsAt := strings.Index(out, "Commands:"), strings.Index(out, "Topics (")
	if commandsAt < 0 || topicsAt < commandsAt {
		t.Fatalf("vouch help does not list topics after the commands:\n%s", out)
	}
	for _, topic := range docs.Topics() {
		if !strings.Contains(out[topicsAt:], "\n  "+topic.Name+" ") {
			t.Errorf("vouch help does not list topic %s:\n%s", topic.Name, out[topicsAt:])
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 80 {
			t.Errorf("vouch help has a line wider than 80 columns: %q", line)
		}
	}

	out, _ = cli(t, state, "", exitOK, "help", "policy")
	if !strings.HasPrefix(out, "Usage: vouch policy ") {
		t.Errorf("vouch help policy: %q, want the command's usage", out)
	}

	for _, tc := range []struct{ name, want string }{
		{"aprovals", `vouch: there is no help topic "aprovals"; did you mean 'vouch help approvals'? 'vouch help' lists the commands and topics.` + "\n"},
		{"polcy", `vouch: there is no help topic "polcy"; did you mean 'vouch help policy'? 'vouch help' lists the commands and topics.` + "\n"},
		{"quantum\x1b[2J", `vouch: there is no help topic "quantum\x1b[2J"; 'vouch help' lists the commands and topics.` + "\n"},
	} {
		out, errOut := cli(t, state, "", exitUsage, "help", tc.name)
		if out != "" || errOut != tc.want {
			t.Errorf("vouch help %q: stdout %q, stderr %q, want %q", tc.name, out, errOut, tc.want)
		}
	}
	if entries, err := os.ReadDir(state); err != nil || len(entries) != 0 {
		t.Fatalf("asking for help wrote state: %v (%v)", entries, err)
	}
}

// TestHelpTopicThroughTheBinary: the built binary prints a page as the
// file holds it, and an unknown topic exits 2.
func TestHelpTopicThroughTheBinary(t *testing.T) {
	bin := buildVouch(t)
	page, err := os.ReadFile("../../docs/FLEET.md")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--state-dir", t.TempDir(), "help", "fleet")
	out, err := cmd.Output()
	if err != nil || string(out) != string(page) {
		t.Errorf("vouch help fleet: %v, %d bytes, want docs/FLEET.md (%d bytes)", err, len(out), len(page))
	}
	err = exec.Command(bin, "--state-dir", t.TempDir(), "help", "flet").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage {
		t.Errorf("vouch help flet: %v, want exit %d", err, exitUsage)
	}
}

// TestCommandUsageNamesItsReference: every command's usage names the
// reference page that covers it, and that page speaks of the command
// (issue 28 item 23), so a person reading 'vouch policy --help' finds
// 'vouch help approvals'.
func TestCommandUsageNamesItsReference(t *testing.T) {
	state := t.TempDir()
	for _, c := range commands() {
		topic, ok := docs.Of(c.name)
		if !ok {
			t.Errorf("no reference page covers vouch %s (docs.Topics' Commands)", c.name)
			continue
		}
		out, _ := cli(t, state, "", exitOK, "help", c.name)
		if want := "The reference: vouch help " + topic.Name + " (docs/" + topic.File + ")."; !strings.Contains(out, want) {
			t.Errorf("vouch help %s lacks %q:\n%s", c.name, want, out)
		}
		page, err := topic.Text()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(page, "vouch "+c.name) {
			t.Errorf("docs/%s is named the reference of vouch %s but never says 'vouch %s'", topic.File, c.name, c.name)
		}
	}
}
