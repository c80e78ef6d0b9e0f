package host

import (
	"io"
	"strings"

	"github.com/muesli/termenv"
)

// darkBackground is the background of the terminal out: VOUCH_THEME when
// it says light or dark (then nothing is asked), else what the terminal
// answers to OSC 11 (termenv; dark when it answers nothing within
// termenv's timeout, or out is no terminal). Only what draws the
// interface calls it, before the interface takes the terminal: package
// init asks nothing (a.vouch/early, issue 28 item 18).
func darkBackground(out io.Writer, getenv func(string) string) bool {
	switch strings.ToLower(getenv("VOUCH_THEME")) {
	case "light":
		return false
	case "dark":
		return true
	}
	return termenv.NewOutput(out, termenv.WithEnvironment(envFunc(getenv))).HasDarkBackground()
}

// envFunc is a getenv as termenv reads an environment (TERM decides
// whether a terminal multiplexer is asked at all).
type envFunc func(string) string

func (f envFunc) Getenv(k string) string { return f(k) }

// Environ is empty: termenv reads variables one by one through Getenv.
func (f envFunc) Environ() []string { return nil }
