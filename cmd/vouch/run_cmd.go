package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"vouch/agent"
	"vouch/safetext"
	"vouch/store"
)

// approver answers approval requests of a headless run: nil means no person
// is present, and the run ends with exit 4 at the first call that asks.
type approver func(req agent.ApprovalRequested) (agent.Decision, error)

// runRun is `vouch run [--approve-tty] TASK`: one run in a new conversation,
// the answer on stdout, tool activity on stderr, history kept like any run.
// A call that needs approval ends the run with exit 4 and its correlation
// ID, executing nothing — unless --approve-tty asks on the terminal.
func runRun(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("run", g)
	approveTTY := fs.Bool("approve-tty", false, "ask on the terminal when a call needs approval")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	task := strings.TrimSpace(strings.Join(pos, " "))
	if task == "" {
		return fail(exitUsage, "vouch run needs a task, e.g. vouch run \"summarise README.md\"")
	}
	var ask approver
	if *approveTTY {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return fail(exitUsage, "--approve-tty needs a terminal, and /dev/tty cannot be opened (%v); run without it to stop at the first approval", err)
		}
		defer func() { _ = tty.Close() }()
		ask = ttyApprover(tty, tty)
	}
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find the working directory: %w", err)
	}
	secrets, err := store.NewSecrets(store.SecretsOptions{StateDir: stateDir, Getenv: e.getenv})
	if err != nil {
		secrets = nil
	}
	s, err := openSession(ctx, stateDir, cwd, secrets)
	if err != nil {
		return err
	}
	// Headless runs have nobody to wait for warming in the background:
	// refresh active servers now, bounded by the per-server timeout.
	s.mcp.mgr.WarmAll(ctx)
	if _, err := s.newConversation(); err != nil {
		return errors.Join(err, s.Close())
	}
	model := g.model
	if model == "" {
		if m, ok, err := s.db.Setting(settingModel); err == nil && ok {
			model = m
		}
	}
	cfg := s.backendConfig()
	cfg.modelURL, cfg.model = g.modelURL, model
	err = headlessRun(ctx, newBackend(cfg), task, e, ask)
	return errors.Join(err, s.Close())
}

// headlessRun sends task and follows the run's events to the end.
func headlessRun(ctx context.Context, b *backend, task string, e env, ask approver) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := b.Info(ctx); err != nil {
		return &exitError{code: exitUnavailable, err: err}
	}
	events, err := b.Send(ctx, "", task)
	if err != nil {
		return &exitError{code: exitUnavailable, err: err}
	}
	var stopped error // set when the run is ended for want of a person
	var done agent.Done
	wroteText := false
	for ev := range events {
		switch ev := ev.(type) {
		case agent.TextDelta:
			if _, err := io.WriteString(e.stdout, safetext.Neutralize(ev.Text)); err != nil {
				cancel()
				stopped = fmt.Errorf("write the answer: %w", err)
			}
			wroteText = true
		case agent.ToolCallStarted:
			fmt.Fprintf(e.stderr, "vouch: tool %s %s\n", safetext.Line(ev.Call.Identity, 100), safetext.Line(ev.Call.Arguments, 120))
		case agent.ToolCallFinished:
			outcome := "done"
			if ev.IsError {
				outcome = "error: " + safetext.Line(ev.Result, 160)
			}
			fmt.Fprintf(e.stderr, "vouch: tool %s %s\n", safetext.Line(ev.Call.Identity, 100), outcome)
		case agent.ApprovalRequested:
			if stopped != nil {
				continue
			}
			if ask == nil {
				cancel()
				stopped = &exitError{code: exitApproval, err: fmt.Errorf(
					"%s needs approval (correlation ID %s); nothing was executed — classify it with 'vouch policy set', or run again with --approve-tty",
					safetext.Line(ev.Call.Identity, 100), ev.Call.CorrelationID)}
				continue
			}
			d, err := ask(ev)
			if err != nil {
				cancel()
				stopped = &exitError{code: exitApproval, err: fmt.Errorf("could not ask about %s (correlation ID %s): %w; nothing was executed",
					safetext.Line(ev.Call.Identity, 100), ev.Call.CorrelationID, err)}
				continue
			}
			ev.Reply <- d
		case agent.Done:
			done = ev
		}
	}
	if wroteText {
		_, _ = io.WriteString(e.stdout, "\n")
	}
	if stopped != nil {
		return stopped
	}
	switch done.Reason {
	case agent.StopDone:
		return nil
	case agent.StopError:
		if errors.Is(done.Err, agent.ErrUnreachable) || errors.Is(done.Err, agent.ErrTimeout) {
			return &exitError{code: exitUnavailable, err: done.Err}
		}
		return done.Err
	case agent.StopLimit:
		return done.Err
	default:
		return errors.New("the run was cancelled; what was streamed is kept as a partial answer")
	}
}

// ttyApprover asks on the terminal, showing what vouch knows about the call
// — never the server's own description — with every control character
// neutralised (SPEC D3, D4). Only "y" or "yes" allows.
func ttyApprover(in io.Reader, out io.Writer) approver {
	r := bufio.NewReader(in)
	return func(req agent.ApprovalRequested) (agent.Decision, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "\nTool call waiting for your approval\n  tool       %s\n  called as  %s\n  call ID    %s\n  policy     %s\n",
			safetext.Line(req.Call.Identity, 0), safetext.Line(req.Call.WireName, 0), req.Call.CorrelationID, safetext.Line(req.Reason, 0))
		if req.Preview != "" {
			b.WriteString("  preview\n")
			for _, line := range strings.Split(safetext.Neutralize(req.Preview), "\n") {
				b.WriteString("    " + line + "\n")
			}
		}
		b.WriteString("  arguments\n")
		for _, line := range strings.Split(prettyArgs(req.Call.Arguments), "\n") {
			b.WriteString("    " + line + "\n")
		}
		b.WriteString("Allow once? [y/N] ")
		if _, err := io.WriteString(out, b.String()); err != nil {
			return agent.Decision{}, err
		}
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			return agent.Decision{}, fmt.Errorf("read the answer: %w", err)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return agent.Decision{Allow: true}, nil
		}
		return agent.Decision{Allow: false, Note: "denied on the terminal"}, nil
	}
}

// prettyArgs indents JSON arguments; JSON escapes keep control characters
// visible. Anything that is not JSON is shown neutralised as it is.
func prettyArgs(raw string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(raw), "", "  "); err != nil {
		return safetext.Neutralize(raw)
	}
	return safetext.Neutralize(buf.String())
}
