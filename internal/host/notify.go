package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/internal/app"
	"vouch/internal/notify"
	"vouch/internal/tuiwire"
	"vouch/tui"
)

// tmuxTimeout bounds the question to tmux about its passthrough.
const tmuxTimeout = time.Second

// TmuxPassthrough asks the tmux vouch runs in whether it passes escape
// sequences on (allow-passthrough on or all): the pane's own value when
// it has one, else the global one. It runs before the program starts,
// never inside Update.
func TmuxPassthrough(ctx context.Context) func() (bool, error) {
	return tmuxPassthroughFor(ctx, nil)
}

// tmuxPassthroughFor is TmuxPassthrough for the terminal whose
// environment getenv reads (nil: this process's): its TMUX and TMUX_PANE
// name the tmux server and pane to ask, so a session process asks about
// the pane of the terminal attached to it, not the one it started in.
func tmuxPassthroughFor(ctx context.Context, getenv func(string) string) func() (bool, error) {
	return func() (bool, error) {
		ask := func(scope string) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, tmuxTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, "tmux", "show-options", scope, "allow-passthrough")
			if getenv != nil {
				cmd.Env = append(os.Environ(), "TMUX="+getenv("TMUX"), "TMUX_PANE="+getenv("TMUX_PANE"))
			}
			out, err := cmd.Output()
			if err != nil {
				return "", fmt.Errorf("ask tmux for allow-passthrough (is tmux on PATH?): %w", err)
			}
			return strings.TrimSpace(string(out)), nil
		}
		v, err := ask("-pqv")
		if err == nil && v == "" {
			v, err = ask("-gqv")
		}
		if err != nil {
			return false, err
		}
		return notify.PassthroughOn(v), nil
	}
}

// withNotifications wires terminal notifications into an in-process
// interface drawn on stdout (SPEC L4): one notify.Output around the
// terminal takes a lock for every frame, every OSC 52 copy and every
// notification, so none lands inside another. It returns opts with the
// Notifier, its long-turn threshold and the Clipboard set, and the func
// that drops what the rate limit still holds; settings that cannot be read
// stop the interface from starting, as the database is unreadable. Output
// that is not a file (tests) gets no notifications.
func withNotifications(ctx context.Context, a *app.App, opts tui.Options, stdout io.Writer, getenv func(string) string) (tui.Options, func(), error) {
	f, ok := stdout.(*os.File)
	if !ok {
		return opts, func() {}, nil
	}
	out := notify.NewOutput(f)
	n, err := tuiwire.NewNotifications(a.Settings(), out.Raw(), out, getenv, tmuxPassthroughFor(ctx, getenv))
	if err != nil {
		return opts, func() {}, err
	}
	opts = n.Apply(opts)
	opts.Clipboard = out
	return opts, n.Close, nil
}

// programOutput is the tea.ProgramOption that draws on opts.Clipboard when
// it is the locked terminal of withNotifications, else on os.Stdout, the
// default.
func programOutput(opts tui.Options) tea.ProgramOption {
	if out, ok := opts.Clipboard.(*notify.Output); ok {
		return tea.WithOutput(out)
	}
	return tea.WithOutput(os.Stdout)
}
