package host

import (
	"context"
	"errors"
	"fmt"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/tui"
)

// Terminal is the terminal an in-process interface draws on.
type Terminal struct {
	Stdout io.Writer
	Getenv func(string) string
}

// RunInterface runs the terminal interface over a in this process until
// the person quits (vouch demo): tuiwire composes the backend with the
// workflow panes and the approvals inbox, the scheduler (schedules fire
// only while the interface runs, SPEC H6) and the MCP Apps viewer, as the
// session does.
func RunInterface(ctx context.Context, a *app.App, cfg app.ChatConfig, opts tui.Options, version string, t Terminal) error {
	ui := tuiwire.Start(ctx, a, cfg, opts, version, t.Getenv)
	uiOpts, closeNotes, err := withNotifications(ctx, a, ui.Options, t.Stdout, t.Getenv) // notify.go, SPEC L4
	if err != nil {
		ui.Stop()
		return err
	}
	err = runProgram(ctx, ui.Backend, uiOpts, t.Getenv, t.Stdout)
	closeNotes()
	ui.Stop()
	return err
}

// runProgram runs the interface until the person quits or ctx ends.
// Once the alternate screen is left, the interface's quit summary goes to
// out, so the scrollback says what was kept (issue 18 item 21).
func runProgram(ctx context.Context, b tui.Backend, opts tui.Options, getenv func(string) string, out io.Writer) error {
	opts = opts.WithEnv(getenv)
	// Package init asked nothing (a.vouch/early): the terminal is asked
	// here, before the program takes it, unless VOUCH_THEME says.
	lipgloss.SetHasDarkBackground(darkBackground(out, getenv))
	p := tea.NewProgram(tui.New(b, opts), append(tui.ProgramOptions(), tea.WithContext(ctx), programOutput(opts))...)
	final, err := p.Run()
	if m, ok := final.(tui.Model); ok && !errors.Is(err, tea.ErrProgramPanic) {
		if sum := m.QuitSummary(); sum != "" {
			if _, werr := fmt.Fprintln(out, sum); werr != nil {
				return fmt.Errorf("print the quit summary: %w", werr)
			}
		}
	}
	return programError(err)
}

// errInterfacePanic is the one sentence for an interface that still died
// of a panic (in Update, View or a Cmd: Bubble Tea recovers those, restores
// the terminal and stops the program). Runs recover their own panics, so
// this is the last resort.
var errInterfacePanic = errors.New("vouch's interface stopped on an internal error; the terminal was restored, and your conversations, runs and settings are saved — start vouch again, and please report it with what you were doing")

// programError maps what Program.Run returned: a panic Bubble Tea caught
// becomes errInterfacePanic (it used to pass for a normal exit, since the
// error wraps ErrProgramKilled too), a kill by ctx is a normal end.
func programError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return app.Wrap(app.Failure, errInterfacePanic)
	case errors.Is(err, tea.ErrProgramKilled):
		return nil
	}
	return fmt.Errorf("run the interface: %w", err)
}
