package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/internal/ttyprompt"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/tool"
)

// approver answers approval requests of a headless run: nil means no person
// is present, and the run ends with exit 4 at the first call that asks.
type approver func(req agent.ApprovalRequested) (agent.Decision, error)

// ttyApprover asks p on the terminal for each call of a run under ctx.
func ttyApprover(ctx context.Context, p *ttyprompt.Prompt) approver {
	return func(req agent.ApprovalRequested) (agent.Decision, error) { return p.Ask(ctx, req) }
}

// runResultJSON is `vouch run --json`: the run's ID in history, its
// outcome, the answer, and what stopped it.
type runResultJSON struct {
	RunID           string `json:"run_id,omitempty"`
	Profile         string `json:"profile,omitempty"`
	ProfileRevision int    `json:"profile_revision,omitempty"`
	Outcome         string `json:"outcome"`
	Answer          string `json:"answer"`
	Error           string `json:"error,omitempty"`
	// CorrelationID is the call that needed approval (exit 4).
	CorrelationID string `json:"correlation_id,omitempty"`
	// CutOff is true when the answer stopped at its length limit: it is
	// not a whole answer (SPEC A7). Always present.
	CutOff bool `json:"cut_off"`
	// Usage is the last model turn's token use and rate, the run's
	// totals, and what the run left out (absent when no turn reported one
	// and nothing was left out).
	Usage *app.RunUsage `json:"usage,omitempty"`
}

// runRun is `vouch run [--profile P] [--approve-tty] [--json] TASK`: one
// run, the answer on stdout, tool activity on stderr, history kept like any
// run (SPEC M, H7). A call that needs approval ends the run with exit 4 and
// its correlation ID, executing nothing — unless --approve-tty asks on the
// terminal. With a profile (or the default one) the run freezes the
// profile's revision, definition, skills, allowlist and workspace.
func runRun(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("run", g)
	approveTTY := fs.Bool("approve-tty", false, "ask on the terminal when a call needs approval or a server asks a question")
	profile := fs.String("profile", "", "run the task on this Agent Profile")
	asJSON := fs.Bool("json", false, "print the result as JSON on stdout")
	cont := fs.String("continue", "", "continue the stored conversation with this ID ('vouch conversations' lists them)")
	detach := fs.Bool("detach", false, "start the run in the session process and print its ID (run_detach.go)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	task := strings.TrimSpace(strings.Join(pos, " "))
	if task == "" {
		return app.Errorf(app.Usage, "vouch run needs a task, e.g. vouch run \"summarise README.md\"")
	}
	if *detach {
		if *approveTTY || *asJSON || *cont != "" {
			return app.Errorf(app.Usage, "--detach goes with --profile only: its calls wait in the approvals inbox; follow it with vouch runs show ID --follow")
		}
		return runDetached(g, *profile, task, e)
	}
	if *cont != "" && *profile != "" {
		return app.Errorf(app.Usage, "--continue and --profile do not go together: a profile run starts afresh; drop one of them")
	}
	var tty *os.File
	if *approveTTY && e.tty != nil {
		tty = e.tty // the client's terminal, in the session (SPEC K5)
	} else if *approveTTY {
		tty, err = os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return app.Errorf(app.Usage, "--approve-tty needs a terminal, and /dev/tty cannot be opened (%v); run without it to stop at the first approval", err)
		}
		defer func() { _ = tty.Close() }()
	}
	s, err := openSessionHere(ctx, g, e)
	if err != nil {
		return err
	}
	var ask approver
	if tty != nil {
		// The prompt names the server and host as the approval pane does
		// (SPEC D3) and discards type-ahead before each question (SPEC D7).
		ask = ttyApprover(ctx, ttyprompt.New(tty, s.DescribeTool))
	}
	name, on, err := s.ProfileToRun(*profile, *cont != "") // a continued conversation stays a plain chat run
	if err != nil {
		return errors.Join(err, s.Close())
	}
	if name != "" && !on {
		return errors.Join(app.Wrap(app.Failure, app.ErrWorkflowsOff), s.Close())
	}
	// Headless runs have nobody to wait for warming in the background:
	// refresh active servers now, within one bound for them all, and say
	// which servers' tools are left out (issue 24 items 2, 6). With Agent
	// Workflows off no MCP tool is offered, so none is contacted.
	var absent []mcpclient.Absent
	if on {
		absent = s.MCP().WarmBriefly(ctx)
		if err := reportAbsent(e.stderr, absent); err != nil {
			return errors.Join(err, s.Close())
		}
	}
	model := g.model
	if model == "" {
		if m, ok, err := s.StoredModel(); err == nil && ok {
			model = m
		}
	}
	if name == "" {
		if err := useConversation(s, *cont); err != nil {
			return errors.Join(err, s.Close())
		}
	}
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model, cfg.RunKind = g.modelURL, model, app.RunKindHeadless
	chat := app.NewChat(cfg)
	out := runResultJSON{Profile: name}
	// The answer goes to stdout (unless --json: out is then printed at the
	// end), tool activity to stderr; with nobody to ask, a call that needs
	// approval stops the run with exit 4.
	term := &terminalOutput{e: e, quiet: *asJSON, now: time.Now, name: chat.ToolName, screen: isTerminalWriter(e.stdout)}
	if tty != nil {
		p := ttyprompt.New(tty, s.DescribeTool)
		term.question = func(q tool.Question) (tool.Answer, error) { return p.AskInput(ctx, q) }
	}
	a := ask.after(term.breakLine).toApp() // a question starts on its own line (run_lines.go)
	if name != "" {
		err = s.RunProfileHeadless(ctx, chat, name, task, a, term, (*app.HeadlessResult)(&out))
	} else {
		err = app.RunHeadless(ctx, chat, task, a, term, (*app.HeadlessResult)(&out))
	}
	(*app.HeadlessResult)(&out).LeaveOutServers(absent)
	if *asJSON {
		if err != nil {
			out.Error = err.Error()
		}
		err = errors.Join(err, writeJSON(e.stdout, out))
	}
	return errors.Join(err, s.Close())
}

// followRun follows a run's events to the end (app.FollowRun): the answer
// goes to stdout (unless quiet: the caller then prints out as JSON) and
// into out, tool activity to stderr. A call that needs approval with
// nobody to ask stops the run, recorded as waiting for approval, with
// exit 4.
func followRun(events <-chan agent.Event, stop func(app.RunOutcome, string), e env, ask approver, out *runResultJSON, quiet bool) error {
	term := &terminalOutput{e: e, quiet: quiet, now: time.Now, screen: isTerminalWriter(e.stdout)}
	return app.FollowRun(events, stop, ask.after(term.breakLine).toApp(), term, (*app.HeadlessResult)(out))
}

// toApp is ask as the application takes it: nil stays nil (nobody to ask).
func (ask approver) toApp() app.Approver {
	if ask == nil {
		return nil
	}
	return app.Approver(ask)
}

// terminalOutput shows a headless run on the terminal: the answer on
// stdout, neutralized, tool activity on stderr.
type terminalOutput struct {
	e       env
	quiet   bool // the answer is printed as JSON at the end instead
	midLine bool // text was written since the last newline
	// screen is true when stdout is a terminal: the answer's line then
	// ends before a tool line or a question (run_lines.go).
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

// AnswerQuestion implements app.QuestionAnswerer.
func (o *terminalOutput) AnswerQuestion(q tool.Question) (tool.Answer, error) {
	if o.question == nil {
		return tool.Answer{Action: tool.Decline, Why: app.NoTerminal}, nil
	}
	if err := o.breakLine(); err != nil {
		return tool.Answer{}, err
	}
	return o.question(q)
}

// tool names identity on a line of tool activity, neutralised.
func (o *terminalOutput) tool(identity string) string {
	if o.name == nil {
		return safetext.Line(identity, 100)
	}
	return safetext.Line(o.name(identity), 100)
}

// progressEvery is the least time between two progress lines on stderr.
const progressEvery = 500 * time.Millisecond

// Show implements app.RunOutput.
func (o *terminalOutput) Show(ev agent.Event) error {
	switch ev := ev.(type) {
	case agent.TextDelta:
		if o.quiet {
			return nil
		}
		o.midLine = true
		return o.write(o.e.stdout, "the answer", "%s", safetext.Neutralize(ev.Text))
	case agent.PartFinished:
		if o.midLine {
			o.midLine = false
			return o.write(o.e.stdout, "the answer", "\n")
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
			return o.note("a notice", "%s\n", withPrefix(note)) // never "vouch: vouch's …"
		}
	}
	return nil
}

// progress shows a tool call's progress on stderr when stderr is a
// terminal (SPEC B11), at most one line per progressEvery; the server's
// message is neutralized.
func (o *terminalOutput) progress(ev agent.ToolProgress) error {
	if !o.e.stderrTerminal || o.now == nil {
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
func (o *terminalOutput) End() error {
	if !o.midLine {
		return nil
	}
	if _, err := io.WriteString(o.e.stdout, "\n"); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

func (o *terminalOutput) write(w io.Writer, what, format string, args ...any) error {
	if _, err := fmt.Fprintf(w, format, args...); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}
