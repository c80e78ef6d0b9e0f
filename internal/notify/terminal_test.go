package notify

import (
	"errors"
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func on() (bool, error)  { return true, nil }
func off() (bool, error) { return false, nil }

// TestDetect: the terminal's kind from its environment, and the
// multiplexer (SPEC L4).
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  func(string) string
		pass func() (bool, error)
		want Terminal
	}{
		{"iterm2", env("TERM_PROGRAM", "iTerm.app"), nil, Terminal{Kind: KindOSC9}},
		{"wezterm", env("TERM_PROGRAM", "WezTerm"), nil, Terminal{Kind: KindOSC9}},
		{"windows terminal", env("WT_SESSION", "x"), nil, Terminal{Kind: KindOSC9}},
		{"iterm2 over ssh", env("LC_TERMINAL", "iTerm2"), nil, Terminal{Kind: KindOSC9}},
		{"kitty by TERM", env("TERM", "xterm-kitty"), nil, Terminal{Kind: KindOSC99}},
		{"kitty by window", env("KITTY_WINDOW_ID", "1"), nil, Terminal{Kind: KindOSC99}},
		{"ghostty", env("TERM_PROGRAM", "ghostty"), nil, Terminal{Kind: KindOSC777}},
		{"urxvt", env("TERM", "rxvt-unicode-256color"), nil, Terminal{Kind: KindOSC777}},
		{"foot", env("TERM", "foot"), nil, Terminal{Kind: KindOSC777}},
		{"vte", env("TERM", "xterm-256color", "VTE_VERSION", "7600"), nil, Terminal{Kind: KindOSC777}},
		{"apple terminal", env("TERM_PROGRAM", "Apple_Terminal"), nil, Terminal{Kind: KindBell}},
		{"unknown", env("TERM", "xterm"), nil, Terminal{Kind: KindBell}},
		{"tmux passthrough on", env("TMUX", "/tmp/s,1,0", "TERM_PROGRAM", "tmux", "KITTY_WINDOW_ID", "3"), on, Terminal{Kind: KindOSC99, Mux: MuxTmux, Passthrough: true}},
		{"tmux passthrough off", env("TMUX", "/tmp/s,1,0", "LC_TERMINAL", "iTerm2"), off, Terminal{Kind: KindOSC9, Mux: MuxTmux}},
		{"tmux passthrough unknown", env("TMUX", "/tmp/s,1,0"), func() (bool, error) { return true, errors.New("no tmux") }, Terminal{Mux: MuxTmux}},
		{"screen", env("TERM", "screen.xterm-256color", "TERM_PROGRAM", "iTerm.app"), on, Terminal{Kind: KindOSC9, Mux: MuxScreen}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detect(tc.env, tc.pass); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestFormatBytes: the exact bytes for each kind, inside tmux with
// passthrough on and off, and inside screen.
func TestFormatBytes(t *testing.T) {
	const title, body = "vouch", "approval waiting: fs.write"
	for _, tc := range []struct {
		name string
		term Terminal
		bell bool
		want string
	}{
		{"bell", Terminal{Kind: KindBell}, false, "\a"},
		{"osc9", Terminal{Kind: KindOSC9}, false, "\x1b]9;vouch: approval waiting: fs.write\a"},
		{"osc777", Terminal{Kind: KindOSC777}, false, "\x1b]777;notify;vouch;approval waiting: fs.write\a"},
		{"osc99", Terminal{Kind: KindOSC99}, false, "\x1b]99;i=vouch:d=0:p=title;vouch\x1b\\\x1b]99;i=vouch:d=1:p=body;approval waiting: fs.write\x1b\\"},
		{"level bell", Terminal{Kind: KindOSC9}, true, "\a"},
		{"tmux on osc9", Terminal{Kind: KindOSC9, Mux: MuxTmux, Passthrough: true}, false,
			"\x1bPtmux;\x1b\x1b]9;vouch: approval waiting: fs.write\a\x1b\\"},
		{"tmux on osc99", Terminal{Kind: KindOSC99, Mux: MuxTmux, Passthrough: true}, false,
			"\x1bPtmux;\x1b\x1b]99;i=vouch:d=0:p=title;vouch\x1b\x1b\\\x1b\x1b]99;i=vouch:d=1:p=body;approval waiting: fs.write\x1b\x1b\\\x1b\\"},
		{"tmux off", Terminal{Kind: KindOSC9, Mux: MuxTmux}, false, "\a"},
		{"screen osc777", Terminal{Kind: KindOSC777, Mux: MuxScreen}, false, "\x1bP\x1b]777;notify;vouch;approval waiting: fs.write\a\x1b\\"},
		{"screen osc99 rings", Terminal{Kind: KindOSC99, Mux: MuxScreen}, false, "\a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(tc.term.Format(title, body, tc.bell)); got != tc.want {
				t.Errorf("got %q,\nwant %q", got, tc.want)
			}
		})
	}
}

// hostile are tool names and labels a server may send.
func hostile() map[string]string {
	return map[string]string{
		"bel":        "x\a\x1b]52;c;aGVsbG8=\a",
		"osc52":      "\x1b]52;c;ZXZpbA==\x1b\\rest",
		"st c1":      "a\u009c\x1b]0;title\u0007b",
		"semicolons": "a;b;c",
		"csi":        "\x1b[2J\x1b[31mred",
		"dcs":        "\x1bPtmux;\x1b\x1b]9;inner\a\x1b\\",
		"bidi":       "safe\u202Eexe.txt\u2066",
		"newlines":   "one\ntwo\rthree",
		"10KB":       strings.Repeat("A;\a\x1b", 2600),
	}
}

// TestFormatHostile: untrusted text cannot end the sequence early, start
// another, or add a field; and it is capped (SPEC L4, D3).
func TestFormatHostile(t *testing.T) {
	kinds := []Terminal{
		{Kind: KindOSC9}, {Kind: KindOSC777}, {Kind: KindOSC99},
		{Kind: KindOSC9, Mux: MuxTmux, Passthrough: true}, {Kind: KindOSC777, Mux: MuxScreen},
	}
	for name, text := range hostile() {
		for _, term := range kinds {
			t.Run(name+"/"+term.Kind.String(), func(t *testing.T) {
				clean := Format(term, "label "+text, "tool "+text)
				want := Format(term, "label X", "tool X")
				// The structure — every ESC, BEL, ST and ";" — is the same
				// as for harmless text.
				if got, w := skeleton(clean), skeleton(want); got != w {
					t.Errorf("structure changed:\n got %q\nwant %q\n(bytes %q)", got, w, clean)
				}
				if strings.ContainsRune(clean, '\u202E') || strings.ContainsRune(clean, '\u009c') {
					t.Errorf("hidden control survived: %q", clean)
				}
				if n := len([]rune(clean)); n > 2*MaxRunes+80 {
					t.Errorf("sequence is %d runes; the text is not capped", n)
				}
			})
		}
	}
}

// Format is Terminal.Format as a string, for tests.
func Format(t Terminal, title, body string) string { return string(t.Format(title, body, false)) }

// skeleton keeps only the bytes that give a sequence its structure.
func skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\x1b', '\a', ';', '\u009c', '\\':
			return r
		}
		return -1
	}, s)
}

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"fs.write", "fs.write"},
		{"a;b", "ab"},
		{"x\a\x1b]52;c;aGVsbG8=\a", "x"},
		{"one\ntwo", "one two"},
		{"r\u202Etl", "r⟨U+202E⟩tl"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := []rune(Clean(strings.Repeat("é", 10000))); len(got) != MaxRunes {
		t.Errorf("10,000 runes cleaned to %d, want %d", len(got), MaxRunes)
	}
}

func TestOverrideAndParse(t *testing.T) {
	base := Terminal{Kind: KindOSC9, Mux: MuxTmux, Passthrough: true}
	got, err := base.Override("osc777")
	if err != nil || got.Kind != KindOSC777 || got.Mux != MuxTmux {
		t.Errorf("Override(osc777) = %+v, %v", got, err)
	}
	if got, _ := base.Override("auto"); got != base {
		t.Errorf("Override(auto) = %+v, want %+v", got, base)
	}
	if _, err := base.Override("osc52"); err == nil || !strings.Contains(err.Error(), "use auto, bell, osc9, osc777 or osc99") {
		t.Errorf("Override(osc52) err = %v, want one listing the kinds", err)
	}
	for in, want := range map[string]bool{"on": true, "all\n": true, "off": false, "": false, "yes": false} {
		if got := PassthroughOn(in); got != want {
			t.Errorf("PassthroughOn(%q) = %v, want %v", in, got, want)
		}
	}
}
