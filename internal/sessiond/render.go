package sessiond

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Renderer returns a lipgloss renderer that draws for t's terminal: the
// colour profile from the client's TERM, COLORTERM and NO_COLOR, the
// background the client detected. It never asks the terminal anything
// (the session has none; the client asked before it said hello).
func (t Terminal) Renderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(t.Output, termenv.WithEnvironment(helloEnv(t.Hello.Env)), termenv.WithTTY(true))
	r.SetColorProfile(r.Output().EnvColorProfile())
	r.SetHasDarkBackground(t.Hello.Dark)
	return r
}

// helloEnv is a client's environment as termenv reads it.
type helloEnv map[string]string

func (e helloEnv) Environ() []string {
	out := make([]string, 0, len(e))
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

func (e helloEnv) Getenv(k string) string { return e[k] }
