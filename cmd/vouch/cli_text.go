package main

import (
	"flag"
	"fmt"
	"regexp"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
)

// The CLI's own sentences (issue 18 item 19): help that fits 80 columns,
// a suggestion for a mistyped command, flag errors that name flags as
// they are typed (--context, not -context), and counts with the right
// plural.

// helpEntry is one command of the usage: its name, then its summary
// wrapped at clitext.Width under a hanging indent.
func helpEntry(name, summary string) string {
	w := 10
	for _, c := range commands() {
		w = max(w, len(c.name))
	}
	return clitext.WrapHanging(fmt.Sprintf("  %-*s ", w, name), summary, w+3)
}

// commandUsageText is one command's usage line, wrapped.
func commandUsageText(c command) string {
	return clitext.WrapHanging("Usage: vouch "+c.name+" ", c.summary, len("Usage: vouch ")+2)
}

// unknownCommand is the usage error of a command vouch does not have,
// with the nearest command's name when one is close: a typo of it.
func unknownCommand(name string) error {
	best, bestD := "", 3 // suggest at an edit distance of at most 2
	for _, c := range commands() {
		if d := clitext.EditDistance(strings.ToLower(name), c.name); d < bestD {
			best, bestD = c.name, d
		}
	}
	if best != "" {
		return app.Errorf(app.Usage, "unknown command %q; did you mean %q? 'vouch help' lists the commands", name, best)
	}
	return app.Errorf(app.Usage, "unknown command %q; run 'vouch help' for the list", name)
}

// unknownSub is the usage error of a subcommand command does not have,
// naming the nearest of known when one is close (issue 28 item 15).
func unknownSub(command, sub string, known ...string) error {
	list := strings.Join(known[:len(known)-1], ", ") + " or " + known[len(known)-1]
	for _, k := range known {
		if clitext.EditDistance(strings.ToLower(sub), k) <= 2 {
			return app.Errorf(app.Usage, "unknown subcommand 'vouch %s %s'; did you mean 'vouch %s %s'? The subcommands are %s", command, sub, command, k, list)
		}
	}
	return app.Errorf(app.Usage, "unknown subcommand 'vouch %s %s'; use %s", command, sub, list)
}

// singleDashFlag finds a flag named with one dash in Go's flag errors.
var singleDashFlag = regexp.MustCompile(`(^|[\s:])-([A-Za-z][A-Za-z0-9-]*)`)

// flagError is the usage error of a flag set's parse error: the flags as
// they are typed (--context), and where to read the command's flags.
// command is the command as typed after "vouch" ("tools plan").
// An empty command is vouch's global flags.
func flagError(command string, err error) error {
	full, help := "vouch", "vouch help"
	if command != "" {
		full = "vouch " + command
		help = full + " --help"
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg = "there is no flag " + name + " for '" + full + "'"
	}
	msg = singleDashFlag.ReplaceAllString(msg, "$1--$2")
	return app.Errorf(app.Usage, "%s; run '%s' for its flags", msg, help)
}

// commandOf is the command a flag set parses, as typed after "vouch".
func commandOf(fs *flag.FlagSet) string { return strings.TrimPrefix(fs.Name(), "vouch ") }
