// Package termout shows a headless run on the terminal (`vouch run`):
// the answer on stdout, neutralised, tool activity, progress and notices
// on stderr, each on a line of its own, and the questions of
// --approve-tty starting on a fresh line (SPEC B11, B12, M). It is a front
// end beside internal/ttyprompt and the TUI: it writes what the run's
// events say and decides nothing.
package termout

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/tool"
)

// Output shows a headless run on the terminal: the answer on
// stdout, neutralized, tool activity on stderr.
type Output struct {
	stdout, stderr io.Writer
	// stderrTerminal: stderr is a terminal (progress is shown only then,
	// SPEC B11).
	stderrTerminal bool
	quiet          bool // the answer is printed as JSON at the end instead
	midLine        bool // text was written since the last newline
	// screen is true when stdout is a terminal: the answer's line then
	// ends before a tool line or a question (BreakLine).
	screen bool
	// now is the clock of the progress rate limit; lastProgress when a
	// progress line was last written.
	now          func() time.Time
	lastProgress time.Time
	// leftOut is how many earlier messages the run was last said to leave
	// out.
	leftOut int
	// name is how the person reads a tool, "demo tools › lookup" (issue
	// 18 item 9); nil: its identity.
	name func(identity string) string
	// question asks a server's question on the terminal (--approve-tty);
	// nil: it is declined at once (SPEC B12).
	question func(q tool.Question) (tool.Answer, error)
}

// New shows a run on stdout and stderr; stderrTerminal says stderr is a
// terminal (progress is shown only then), quiet that the answer is not
// streamed (the caller prints it as JSON at the end). name, when set, is
// how the person reads a tool; question, when set, asks a server's
// question (--approve-tty), else it is declined at once.
func New(stdout, stderr io.Writer, stderrTerminal, quiet bool, name func(string) string, question func(tool.Question) (tool.Answer, error)) *Output {
	return &Output{stdout: stdout, stderr: stderr, stderrTerminal: stderrTerminal, quiet: quiet, now: time.Now,
		name: name, question: question, screen: isTerminalWriter(stdout)}
}

// Approver is ask as the application takes it, each question starting on
// a line of its own (BreakLine); nil stays nil: nobody to ask, and the run
// ends with exit 4 at the first call that asks.
func (o *Output) Approver(ask func(agent.ApprovalRequested) (agent.Decision, error)) app.Approver {
	if ask == nil {
		return nil
	}
	return func(req agent.ApprovalRequested) (agent.Decision, error) {
		if err := o.BreakLine(); err != nil {
			return agent.Decision{}, err
		}
		return ask(req)
	}
}

// WithPrefix is a line of vouch's on stderr: "vouch: " and msg, unless msg
// names vouch itself already ("vouch's …").
func WithPrefix(msg string) string {
	if strings.HasPrefix(msg, "vouch ") || strings.HasPrefix(msg, "vouch's ") {
		return msg
	}
	return "vouch: " + msg
}

// ReportAbsent writes one line to w for each active server whose tools
// are not offered, naming it and saying why (issue 24 items 2 and 6).
func ReportAbsent(w io.Writer, absent []mcpclient.Absent) error {
	for _, a := range absent {
		if _, err := fmt.Fprintf(w, "vouch: MCP server %q: its tools are not offered: %s\n",
			safetext.Line(a.Name, 60), safetext.Line(a.Why, 300)); err != nil {
			return fmt.Errorf("write to stderr: %w", err)
		}
	}
	return nil
}

// AnswerQuestion implements app.QuestionAnswerer.
func (o *Output) AnswerQuestion(q tool.Question) (tool.Answer, error) {
	if o.question == nil {
		return tool.Answer{Action: tool.Decline, Why: app.NoTerminal}, nil
	}
	if err := o.BreakLine(); err != nil {
		return tool.Answer{}, err
	}
	return o.question(q)
}

// tool names identity on a line of tool activity, neutralised.
func (o *Output) tool(identity string) string {
	if o.name == nil {
		return safetext.Line(identity, 100)
	}
	return safetext.Line(o.name(identity), 100)
}

// progressEvery is the least time between two progress lines on stderr.
const progressEvery = 500 * time.Millisecond

// Show implements app.RunOutput.
func (o *Output) Show(ev agent.Event) error {
	switch ev := ev.(type) {
	case agent.TextDelta:
		if o.quiet {
			return nil
		}
		o.midLine = true
		return o.write(o.stdout, "the answer", "%s", safetext.Neutralize(ev.Text))
	case agent.PartFinished:
		if o.midLine {
			o.midLine = false
			return o.write(o.stdout, "the answer", "\n")
		}
	case agent.ToolCallStarted:
		return o.note("tool activity", "vouch: tool %s %s\n", o.tool(ev.Call.Identity), safetext.Line(ev.Call.Arguments, 120))
	case agent.ToolCallFinished:
		outcome := "done"
		if ev.IsError {
			outcome = "error: " + safetext.Line(ev.Result, 160)
		}
		return o.note("tool activity", "vouch: tool %s %s\n", o.tool(ev.Call.Identity), outcome)
	case agent.ToolProgress:
		return o.progress(ev)
	case agent.InputNoted: // SPEC B12: what became of a server's question
		return o.note("tool activity", "vouch: the server's question: %s\n", safetext.Line(ev.Text, 300))
	case agent.Usage:
		// Earlier messages left out (issue 24 item 6), once per run.
		if ev.LeftOut > o.leftOut {
			o.leftOut = ev.LeftOut
			if err := o.note("a notice", "vouch: %d earlier messages of this conversation were left out: they do not fit the model's window (they stay stored)\n", ev.LeftOut); err != nil {
				return err
			}
		}
		// The server cut the prompt, the reply was cut off (SPEC A7).
		if note := ev.Notice(); note != "" {
			return o.note("a notice", "%s\n", WithPrefix(note)) // never "vouch: vouch's …"
		}
	}
	return nil
}

// progress shows a tool call's progress on stderr when stderr is a
// terminal (SPEC B11), at most one line per progressEvery; the server's
// message is neutralized.
func (o *Output) progress(ev agent.ToolProgress) error {
	if !o.stderrTerminal || o.now == nil {
		return nil
	}
	now := o.now()
	if !o.lastProgress.IsZero() && now.Sub(o.lastProgress) < progressEvery {
		return nil
	}
	o.lastProgress = now
	line := fmt.Sprintf("%g", ev.Progress)
	if ev.Total > 0 {
		line += fmt.Sprintf("/%g", ev.Total)
	}
	if ev.Message != "" {
		line += " " + safetext.Line(ev.Message, 120)
	}
	return o.note("tool progress", "vouch: tool %s progress %s\n", o.tool(ev.Identity), line)
}

// End implements app.RunOutput: the answer ends its line.
func (o *Output) End() error {
	if !o.midLine {
		return nil
	}
	if _, err := io.WriteString(o.stdout, "\n"); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

func (o *Output) write(w io.Writer, what, format string, args ...any) error {
	if _, err := fmt.Fprintf(w, format, args...); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}

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

// BreakLine ends the answer's line when it is mid-line on a terminal.
func (o *Output) BreakLine() error {
	if !o.midLine || !o.screen {
		return nil
	}
	o.midLine = false
	if _, err := io.WriteString(o.stdout, "\n"); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

// note writes a line of tool activity or a notice to stderr, on a line of
// its own.
func (o *Output) note(what, format string, args ...any) error {
	if err := o.BreakLine(); err != nil {
		return err
	}
	return o.write(o.stderr, what, format, args...)
}
