package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"vouch/agent"
)

// One line, one stream (issue 18 item 19). The answer streams to stdout
// without line ends; tool activity goes to stderr, and --approve-tty asks
// on the terminal. On a screen they share, a tool line or a question used
// to continue the answer's line ("Taking notes vouch: tool …"). So
// before anything else is written, an answer that is mid-line on a
// terminal ends its line. Piped to a file, the answer is left exactly as
// the model wrote it.

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// breakLine ends the answer's line when it is mid-line on a terminal.
func (o *terminalOutput) breakLine() error {
	if !o.midLine || !o.screen {
		return nil
	}
	o.midLine = false
	if _, err := io.WriteString(o.e.stdout, "\n"); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

// note writes a line of tool activity or a notice to stderr, on a line of
// its own.
func (o *terminalOutput) note(what, format string, args ...any) error {
	if err := o.breakLine(); err != nil {
		return err
	}
	return o.write(o.e.stderr, what, format, args...)
}

// after returns ask that runs first before each question (nil stays nil).
func (ask approver) after(first func() error) approver {
	if ask == nil {
		return nil
	}
	return func(req agent.ApprovalRequested) (agent.Decision, error) {
		if err := first(); err != nil {
			return agent.Decision{}, err
		}
		return ask(req)
	}
}
