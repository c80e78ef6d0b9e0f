package main

import (
	"flag"
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

// flagError is the usage error of fs's parse error err: what the flag
// takes, as typed (--context; clitext.FlagProblem), and where to read the
// command's flags; fs named "vouch" is vouch's global flags.
func flagError(fs *flag.FlagSet, err error) error {
	full, help := fs.Name(), "vouch help"
	if full != "vouch" {
		help = full + " --help"
	}
	return app.Errorf(app.Usage, "%s; run '%s' for its flags", clitext.FlagProblem(fs, full, err), help)
}
