package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"vouch/internal/termtest"
)

// The terminal queries termenv sends to learn the background: OSC 11 and,
// as its fence, a cursor-position report (issue 28 item 18).
const (
	askBackground = "\x1b]11;?"
	askCursor     = "\x1b[6n"
)

// The theme's muted colour (tui/kit theme.go), which the chat screen's
// first frame draws its hints in, as a true-colour terminal gets it: on a
// light background, and on a dark one.
const (
	lightText = "38;2;107;107;118"
	darkText  = "38;2;154;154;165"
)

// queryEnv is an environment in which termenv would ask the terminal: an
// emulator's TERM (it asks no multiplexer), no CI (it asks nothing there),
// true colour, no VOUCH_THEME; extra is added.
func queryEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TERM", "CI", "COLORTERM", "NO_COLOR", "VOUCH_THEME", "TMUX":
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "TERM=xterm-256color", "COLORTERM=truecolor"), extra...)
}

// TestCommandsThatDrawNothingAskNothing (issue 28 item 18): on a
// pseudo-terminal that never answers, a command that draws no interface
// writes no terminal query — so it never waits for an answer (before,
// Bubble Tea's package init asked in every process and waited termenv's
// 5 s).
func TestCommandsThatDrawNothingAskNothing(t *testing.T) {
	bin := buildVouch(t)
	model := helloModel(t)
	state := shortState(t)
	for _, tc := range []struct {
		name, want string
		args       []string
		fails      bool
	}{
		{"version", "vouch ", []string{"version"}, false},
		{"attach to no session", "no vouch session runs", []string{"attach"}, true},
		{"run", "Hello there.", []string{"--model-url", model.URL(), "--model", "m", "run", "say hello"}, false},
		{"settings", "session-idle", []string{"settings"}, false},
		{"server list", "no MCP servers", []string{"server", "list"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"--state-dir", state}, tc.args...)...)
			cmd.Env = queryEnv()
			start := time.Now()
			term, err := termtest.StartAnswering(cmd, 80, 24, termtest.Silent)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = term.Close() }()
			if err := term.WaitFor(tc.want, e2eTimeout); err != nil {
				t.Fatalf("%v; output so far: %q", err, term.Output())
			}
			if err := term.Wait(); (err != nil) != tc.fails {
				t.Fatalf("vouch %s: %v; output %q", strings.Join(tc.args, " "), err, term.Output())
			}
			took := time.Since(start)
			out := term.Output()
			for _, q := range []string{askBackground, askCursor} {
				if strings.Contains(out, q) {
					t.Errorf("vouch %s wrote the terminal query %q; output %q", strings.Join(tc.args, " "), q, out)
				}
			}
			t.Logf("vouch %s exited in %s", tc.name, took)
		})
	}
}

// TestDrawingAsksTheBackground (issue 28 item 18): what draws the
// interface asks the terminal for its background before it draws, and
// draws for the answer — `vouch demo` in-process, `vouch` through the
// session (the Hello's Dark) — unless VOUCH_THEME says, and then nothing
// is asked.
func TestDrawingAsksTheBackground(t *testing.T) {
	bin := buildVouch(t)
	for _, tc := range []struct {
		name  string
		args  []string
		env   []string
		bg    string
		asks  bool
		color string
	}{
		{"demo on a light terminal", []string{"demo"}, nil, termtest.Light, true, lightText},
		{"demo on a dark terminal", []string{"demo"}, nil, termtest.Dark, true, darkText},
		{"demo with VOUCH_THEME=dark", []string{"demo"}, []string{"VOUCH_THEME=dark"}, termtest.Light, false, darkText},
		{"vouch on a light terminal", nil, nil, termtest.Light, true, lightText},
		{"vouch with VOUCH_THEME=dark", nil, []string{"VOUCH_THEME=dark"}, termtest.Light, false, darkText},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := shortState(t)
			stopSessionAtEnd(t, state)
			args := append([]string{"--state-dir", state, "--model-url", "http://127.0.0.1:9/v1"}, tc.args...)
			cmd := exec.Command(bin, args...)
			cmd.Env = queryEnv(tc.env...)
			term, err := termtest.StartAnswering(cmd, 80, 24, tc.bg)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = term.Close() }()
			if err := term.WaitFor(tc.color, e2eTimeout); err != nil {
				t.Fatalf("the interface did not draw with %q: %v; output so far: %q", tc.color, err, term.Output())
			}
			out := term.Output()
			if asked := strings.Contains(out, askBackground); asked != tc.asks {
				t.Errorf("asked the background: %v, want %v; output %q", asked, tc.asks, out)
			}
			other := map[string]string{lightText: darkText, darkText: lightText}[tc.color]
			if strings.Contains(out, other) {
				t.Errorf("the interface drew with %q too; output %q", other, out)
			}
		})
	}
}
