package tuiwire

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"vouch/internal/app"
	"vouch/internal/notify"
	"vouch/tui"
	"vouch/tui/notes"
	"vouch/tui/settings/notifications"
)

// Notifications is the interface's notes.Notifier over internal/notify, and
// the Notify page's Backend (SPEC L4): it reads the notify,
// notify-terminal and long-turn settings when it is made, and a level
// picked on the page is stored and applied at once. Safe for concurrent
// use.
type Notifications struct {
	w        *notify.Writer
	st       app.Settings
	longTurn time.Duration
}

// NewNotifications returns the notifications of an interface drawn on out,
// whose frames are written under outMu (a *notify.Output is both), for
// the terminal detected from getenv — the environment of the terminal the
// person sits at — and tmux's passthrough state (see notify.Detect). A
// setting that cannot be read is reported; the default is used for it.
func NewNotifications(st app.Settings, out io.Writer, outMu sync.Locker, getenv func(string) string, passthrough func() (bool, error)) (*Notifications, error) {
	term := notify.Detect(getenv, passthrough)
	n := &Notifications{w: notify.NewWriter(out, outMu, term), st: st, longTurn: notes.DefaultLongTurn}
	var errs []error
	if v, err := st.Value(app.SettingNotifyTerminal); err != nil {
		errs = append(errs, err)
	} else if t, err := term.Override(v.Value); err == nil {
		n.w.SetTerminal(t)
	}
	if v, err := st.Value(app.SettingNotify); err != nil {
		errs = append(errs, err)
	} else if l, err := notify.ParseLevel(v.Value); err == nil {
		n.w.SetLevel(l)
	}
	if d, err := st.Duration(app.SettingLongTurn); err != nil {
		errs = append(errs, err)
	} else {
		n.longTurn = d
	}
	if len(errs) > 0 {
		return n, fmt.Errorf("notifications use their defaults: %w", errs[0])
	}
	return n, nil
}

// Apply returns opts with n as the Notifier and the long-turn threshold.
func (n *Notifications) Apply(opts tui.Options) tui.Options {
	opts.Notifier, opts.LongTurn = n, n.longTurn
	return opts
}

// Notify implements notes.Notifier.
func (n *Notifications) Notify(note notes.Note) error {
	ev := notify.EventApproval
	switch note.Kind {
	case notes.RunEnded:
		ev = notify.EventRunEnded
	case notes.LongTurn:
		ev = notify.EventLongTurn
	}
	return n.w.Notify(notify.Note{Event: ev, Title: note.Title, Body: note.Body})
}

// NotifyState implements notifications.Backend.
func (n *Notifications) NotifyState(context.Context) (notifications.State, error) {
	return notifications.State{Level: string(n.w.Level()), Terminal: DescribeTerminal(n.w.Terminal()), LongTurn: n.longTurn}, nil
}

// SetNotifyLevel implements notifications.Backend: it stores the level
// and applies it.
func (n *Notifications) SetNotifyLevel(_ context.Context, level string) error {
	v, err := n.st.Set(app.SettingNotify, level)
	if err != nil {
		return err
	}
	l, err := notify.ParseLevel(v.Value)
	if err != nil {
		return err
	}
	n.w.SetLevel(l)
	return nil
}

// Focused implements notes.FocusNotifier: notes held by the rate limit are
// dropped, as the person is looking at the screen they describe.
func (n *Notifications) Focused() { n.w.Drop() }

// Close drops notes held by the rate limit; later ones are ignored.
func (n *Notifications) Close() { n.w.Close() }

// DescribeTerminal says in a few words what reaches the terminal t.
func DescribeTerminal(t notify.Terminal) string {
	seq := map[notify.Kind]string{notify.KindOSC9: "OSC 9", notify.KindOSC777: "OSC 777", notify.KindOSC99: "OSC 99 (kitty)"}[t.Kind]
	switch {
	case t.Mux == notify.MuxTmux && !t.Passthrough:
		return "the bell, as tmux passthrough is off (set -g allow-passthrough on in tmux, then restart vouch)"
	case t.Kind == notify.KindBell:
		return "the bell, as vouch knows no notification sequence for this terminal (vouch settings set notify-terminal osc9, osc777 or osc99)"
	case t.Mux == notify.MuxTmux:
		return seq + " through tmux passthrough"
	case t.Mux == notify.MuxScreen && t.Kind == notify.KindOSC99:
		return "the bell, as kitty's sequence cannot pass through screen"
	case t.Mux == notify.MuxScreen:
		return seq + " through screen"
	}
	return seq
}
