package main

import (
	"context"
	"errors"
	"os"
	"strings"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/termout"
	"vouch/internal/ttyprompt"
	"vouch/mcpclient"
	"vouch/tool"
)

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
	detach := fs.Bool("detach", false, "start the run in the session process and print its ID")
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
		if err := termout.ReportAbsent(e.stderr, absent); err != nil {
			return errors.Join(err, s.Close())
		}
	}
	chat, err := s.HeadlessChat(name, *cont, g.modelURL, g.model)
	if err != nil {
		return errors.Join(err, s.Close())
	}
	out := app.HeadlessResult{Profile: name} // --json prints it
	// The answer goes to stdout (unless --json: out is then printed at the
	// end), tool activity to stderr; with nobody to ask, a call that needs
	// approval stops the run with exit 4.
	var ask func(agent.ApprovalRequested) (agent.Decision, error)
	var question func(tool.Question) (tool.Answer, error)
	if tty != nil {
		// The prompt names the server and host as the approval pane does
		// (SPEC D3) and discards type-ahead before each question (SPEC D7).
		approvals, questions := ttyprompt.New(tty, s.DescribeTool), ttyprompt.New(tty, s.DescribeTool)
		ask = func(req agent.ApprovalRequested) (agent.Decision, error) { return approvals.Ask(ctx, req) }
		question = func(q tool.Question) (tool.Answer, error) { return questions.AskInput(ctx, q) }
	}
	term := termout.New(e.stdout, e.stderr, e.stderrTerminal, *asJSON, chat.ToolName, question)
	err = s.RunTask(ctx, chat, name, task, term.Approver(ask), term, &out, absent) // a question starts on its own line
	if *asJSON {
		if err != nil {
			out.Error = err.Error()
		}
		err = errors.Join(err, clitext.WriteJSON(e.stdout, out))
	}
	return errors.Join(err, s.Close())
}
