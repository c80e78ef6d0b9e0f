package tuiwire

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"vouch/internal/app"
	"vouch/internal/notify"
	"vouch/store/storetest"
	"vouch/tui"
	"vouch/tui/notes"
)

// lockedBuffer is an output whose writes the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestNotificationsFromSettings: the stored level and terminal override
// apply; a level picked on the page is stored and applied at once; a
// hostile tool name reaches the terminal neutralised (SPEC L4).
func TestNotificationsFromSettings(t *testing.T) {
	st := app.NewSettings(storetest.MustOpen(t))
	if _, err := st.Set(app.SettingNotifyTerminal, "osc777"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Set(app.SettingLongTurn, "2m"); err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	getenv := func(k string) string { return map[string]string{"TERM_PROGRAM": "iTerm.app"}[k] }
	n, err := NewNotifications(st, out, nil, getenv, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	opts := n.Apply(tui.Options{})
	if opts.Notifier == nil || opts.LongTurn.String() != "2m0s" {
		t.Errorf("Apply: notifier %v, long turn %v", opts.Notifier, opts.LongTurn)
	}
	state, err := n.NotifyState(context.Background())
	if err != nil || state.Level != "approvals" || state.Terminal != "OSC 777" {
		t.Errorf("state = %+v, %v", state, err)
	}
	if err := n.Notify(notes.Note{Kind: notes.RunEnded, Title: "vouch", Body: "run ended"}); err != nil || out.String() != "" {
		t.Errorf("the default level notified a run's end: %q (%v)", out.String(), err)
	}
	if err := n.Notify(notes.Note{Kind: notes.Approval, Title: "vouch: approval waiting", Body: "files › x\a\x1b]52;c;ZXZpbA==\a;rm"}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "\x1b]777;notify;vouch: approval waiting;files › xrm\a"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	if err := n.SetNotifyLevel(context.Background(), "loud"); err == nil || !strings.Contains(err.Error(), "use off, bell, approvals or all") {
		t.Errorf("SetNotifyLevel(loud) = %v", err)
	}
	if err := n.SetNotifyLevel(context.Background(), "off"); err != nil {
		t.Fatal(err)
	}
	if v, _ := st.Value(app.SettingNotify); v.Value != "off" {
		t.Errorf("stored level = %q, want off", v.Value)
	}
	if got := n.w.Level(); got != notify.LevelOff {
		t.Errorf("level in force = %q, want off", got)
	}
}

func TestDescribeTerminal(t *testing.T) {
	for term, want := range map[notify.Terminal]string{
		{Kind: notify.KindOSC9}: "OSC 9",
		{Kind: notify.KindOSC9, Mux: notify.MuxTmux, Passthrough: true}: "OSC 9 through tmux passthrough",
		{Kind: notify.KindOSC99, Mux: notify.MuxTmux}:                   "the bell, as tmux passthrough is off (set -g allow-passthrough on in tmux, then restart vouch)",
		{Kind: notify.KindOSC777, Mux: notify.MuxScreen}:                "OSC 777 through screen",
	} {
		if got := DescribeTerminal(term); got != want {
			t.Errorf("%+v: %q, want %q", term, got, want)
		}
	}
}
