// Command vouch is a terminal agent workbench for local models.
//
// This package parses flags and subcommands and wires the pieces together;
// the behaviour lives in the packages it calls.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	// Settles the background before Bubble Tea's init would ask the
	// terminal, so a command that draws nothing asks nothing (issue 28
	// item 18); internal/host asks when it draws.
	_ "a.vouch/early"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	code := run(ctx, os.Args[1:], osEnv())
	stop()
	os.Exit(code)
}
