package main

import (
	"context"

	"vouch/internal/app"
)

// runTUI opens the terminal interface on the configured model server. The
// interface runs in the session process of the state directory, started
// here when none runs, and this process relays the terminal to it: a
// dropped connection leaves the session, its runs and its waiting
// approvals as they are, and running vouch again reattaches (SPEC K4;
// host.Client, internal/sessiond).
func runTUI(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) > 0 {
		return app.Errorf(app.Usage, "unexpected argument %q; run 'vouch help' for usage", args[0])
	}
	if !e.isTerminal {
		return app.Errorf(app.Usage, "vouch needs a terminal for its interface; run it in one, or use 'vouch doctor' to check the setup")
	}
	return attachTerminal(ctx, g, e, true)
}
