package main

import (
	"flag"
	"regexp"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
)

// The CLI's own sentences (issue 18 item 19): help that fits 80 columns,
// a suggestion for a mistyped command, flag errors that name flags as
// they are typed (--context, not -context), and counts with the right
// plural.

// unknownCommand is the usage error of a command vouch does not have,
// with the nearest command's name when one is close: a typo of it.
func unknownCommand(name string) error {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if best := clitext.Nearest(name, names); best != "" {
		return app.Errorf(app.Usage, "unknown command %q; did you mean %q? 'vouch help' lists the commands", name, best)
	}
	return app.Errorf(app.Usage, "unknown command %q; run 'vouch help' for the list", name)
}

// unknownSub is the usage error of a subcommand command does not have,
// naming the nearest of known when one is close (issue 28 item 15).
func unknownSub(command, sub string, known ...string) error {
	list := strings.Join(known[:len(known)-1], ", ") + " or " + known[len(known)-1]
	if k := clitext.Nearest(sub, known); k != "" {
		return app.Errorf(app.Usage, "unknown subcommand 'vouch %s %s'; did you mean 'vouch %s %s'? The subcommands are %s", command, sub, command, k, list)
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
