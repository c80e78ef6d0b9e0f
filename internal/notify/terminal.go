package notify

import (
	"fmt"
	"strings"
)

// Kind is the notification sequence a terminal understands.
type Kind int

// The kinds, from the plainest.
const (
	KindBell   Kind = iota // BEL: every terminal
	KindOSC9               // ESC ] 9 ; message BEL (iTerm2, WezTerm, Windows Terminal)
	KindOSC777             // ESC ] 777 ; notify ; title ; body BEL (urxvt, foot, VTE, ghostty)
	KindOSC99              // ESC ] 99 ; metadata ; payload ESC \ (kitty)
)

// String is the kind's name as the notify-terminal setting spells it.
func (k Kind) String() string {
	switch k {
	case KindBell:
		return "bell"
	case KindOSC9:
		return "osc9"
	case KindOSC777:
		return "osc777"
	case KindOSC99:
		return "osc99"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind reads a notify-terminal value: "auto" (ok, but no kind: keep
// what Detect found), or one of bell, osc9, osc777, osc99.
func ParseKind(s string) (k Kind, auto bool, err error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "auto" || s == "" {
		return KindBell, true, nil
	}
	for k := KindBell; k <= KindOSC99; k++ {
		if k.String() == s {
			return k, false, nil
		}
	}
	return KindBell, false, fmt.Errorf("unknown terminal kind %q; use auto, bell, osc9, osc777 or osc99", s)
}

// Mux is the terminal multiplexer vouch runs inside, if any.
type Mux int

// The multiplexers.
const (
	MuxNone Mux = iota
	MuxTmux
	MuxScreen
)

// Terminal is what a notification is formatted for: the outer terminal's
// kind, the multiplexer between, and whether tmux passes sequences on.
type Terminal struct {
	Kind Kind
	Mux  Mux
	// Passthrough is tmux's allow-passthrough (on or all); without it a
	// sequence inside tmux never reaches the outer terminal.
	Passthrough bool
}

// Detect reads the terminal from getenv (normally os.Getenv); see the
// package doc for the mapping. passthrough, called only inside tmux,
// reports tmux's allow-passthrough; nil, false or an error mean off, so the
// notification is the bell.
func Detect(getenv func(string) string, passthrough func() (bool, error)) Terminal {
	t := Terminal{Kind: detectKind(getenv)}
	switch {
	case getenv("TMUX") != "":
		t.Mux = MuxTmux
		if passthrough != nil {
			on, err := passthrough()
			t.Passthrough = on && err == nil
		}
	case strings.HasPrefix(getenv("TERM"), "screen"):
		t.Mux = MuxScreen
	}
	return t
}

func detectKind(getenv func(string) string) Kind {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case term == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "":
		return KindOSC99
	case strings.EqualFold(prog, "ghostty") || getenv("GHOSTTY_RESOURCES_DIR") != "",
		strings.HasPrefix(term, "rxvt-unicode"), strings.HasPrefix(term, "foot"),
		getenv("VTE_VERSION") != "":
		return KindOSC777
	case prog == "iTerm.app", prog == "WezTerm", getenv("LC_TERMINAL") == "iTerm2",
		getenv("WEZTERM_PANE") != "", getenv("WT_SESSION") != "":
		return KindOSC9
	}
	return KindBell
}

// Override returns t with its kind set by a notify-terminal value; "auto"
// keeps the detected kind.
func (t Terminal) Override(setting string) (Terminal, error) {
	k, auto, err := ParseKind(setting)
	if err != nil {
		return t, err
	}
	if !auto {
		t.Kind = k
	}
	return t, nil
}

// effective is the kind that can reach the outer terminal: inside tmux
// without passthrough, or kitty's ST-terminated sequence inside screen,
// only the bell does.
func (t Terminal) effective() Kind {
	switch {
	case t.Mux == MuxTmux && !t.Passthrough:
		return KindBell
	case t.Mux == MuxScreen && t.Kind == KindOSC99:
		return KindBell
	}
	return t.Kind
}

// Format returns the bytes of one notification with title and body (both
// passed through Clean here, so any text is safe), or just the bell when
// bell is set or the terminal can only ring.
func (t Terminal) Format(title, body string, bell bool) []byte {
	k := t.effective()
	if bell || k == KindBell {
		return []byte("\a")
	}
	title, body = Clean(title), Clean(body)
	var seq string
	switch k {
	case KindOSC9:
		msg := title
		if body != "" {
			msg += ": " + body
		}
		seq = "\x1b]9;" + msg + "\a"
	case KindOSC777:
		seq = "\x1b]777;notify;" + title + ";" + body + "\a"
	case KindOSC99:
		// A title, then the body, as one notification (d=0 says more
		// follows), per kitty's protocol.
		seq = "\x1b]99;i=vouch:d=0:p=title;" + title + "\x1b\\" +
			"\x1b]99;i=vouch:d=1:p=body;" + body + "\x1b\\"
	}
	switch t.Mux {
	case MuxTmux:
		return []byte("\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\")
	case MuxScreen:
		return []byte("\x1bP" + seq + "\x1b\\")
	}
	return []byte(seq)
}

// PassthroughOn reads the output of `tmux show-options -gqv
// allow-passthrough`: "on" or "all" mean sequences pass.
func PassthroughOn(out string) bool {
	switch strings.TrimSpace(out) {
	case "on", "all":
		return true
	}
	return false
}
