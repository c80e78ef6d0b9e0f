package cliview

import (
	"fmt"
	"strings"

	"vouch/docs"
	"vouch/internal/app"
	"vouch/internal/clitext"
)

// Command is one command as the help shows it: its name and its summary
// (its forms and flags).
type Command struct {
	Name, Summary string
}

const usageHead = `vouch — a terminal agent workbench for local models

Usage:
  vouch [global flags]             the terminal interface
  vouch [global flags] COMMAND ...

Commands:
`

// globalHelp ends every usage text.
const globalHelp = `
Global flags:
  --state-dir DIR   state directory (env VOUCH_STATE_DIR)
  --model-url URL   OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1
                    (localhost:8080 means http://localhost:8080/v1;
                    env VOUCH_MODEL_URL)
  --model NAME      model name (env VOUCH_MODEL)

Exit codes: 0 done, 1 failure, 2 usage, 3 input rejected, 4 approval needed,
5 unavailable.
`

// Usage is 'vouch help': the commands, then the reference pages' topics,
// each name's summary wrapped at clitext.Width under a hanging indent,
// then the global flags and the exit codes.
func Usage(commands []Command) string {
	w := 10
	for _, c := range commands {
		w = max(w, len(c.Name))
	}
	for _, t := range docs.Topics() {
		w = max(w, len(t.Name))
	}
	entry := func(name, summary string) string {
		return clitext.WrapHanging(fmt.Sprintf("  %-*s ", w, name), summary, w+3)
	}
	var b strings.Builder
	b.WriteString(usageHead)
	for _, c := range commands {
		b.WriteString(entry(c.Name, c.Summary))
	}
	b.WriteString("\nTopics (vouch help TOPIC prints its page of docs/, which the README links):\n")
	for _, t := range docs.Topics() {
		b.WriteString(entry(t.Name, t.Summary))
	}
	return b.String() + globalHelp
}

// CommandUsage is one command's usage: its forms and flags, wrapped, the
// reference page that covers it (docs.Of), then the global flags and the
// exit codes.
func CommandUsage(c Command) string {
	text := clitext.WrapHanging("Usage: vouch "+c.Name+" ", c.Summary, len("Usage: vouch ")+2)
	if t, ok := docs.Of(c.Name); ok {
		text += fmt.Sprintf("\nThe reference: vouch help %s (docs/%s).\n", t.Name, t.File)
	}
	return text + globalHelp
}

// Help is what 'vouch help [NAME]' prints (issue 28 item 23): the usage
// with no name; a command's usage for a command's name; a topic's page
// byte for byte as docs/ holds it (the pages carry no code point that
// safetext.Hidden names, which package docs' tests hold); else a usage
// error naming the nearest topic or command when one is close, the name
// quoted with %q as an unknown command's is, so no control reaches the
// terminal.
func Help(args []string, commands []Command) (string, error) {
	if len(args) == 0 {
		return Usage(commands), nil
	}
	name := args[0]
	var known []string
	for _, c := range commands {
		if c.Name == name {
			return CommandUsage(c), nil
		}
		known = append(known, c.Name)
	}
	if t, ok := docs.Lookup(name); ok {
		return t.Text()
	}
	for _, t := range docs.Topics() {
		known = append(known, t.Name)
	}
	if best := clitext.Nearest(name, known); best != "" {
		return "", app.Errorf(app.Usage, "there is no help topic %q; did you mean 'vouch help %s'? 'vouch help' lists the commands and topics", name, best)
	}
	return "", app.Errorf(app.Usage, "there is no help topic %q; 'vouch help' lists the commands and topics", name)
}
