package statusline

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/kit"
)

// Parts is what the status line says.
type Parts struct {
	// Demo shows the "demo" badge (vouch demo).
	Demo bool
	// Model is the model in use; "" says "no model".
	Model string
	// Keep are the right side's parts that are never given up, most
	// needed first, drawn in their own style already: the phase under a
	// pane, the inbox badge.
	Keep []string
	// Figures are the right side's figures, most needed first (context,
	// tools, rate); "" ones are left out. The last go first when room is
	// short.
	Figures []string
	// Middle is the notice, hint, warning or server; Whole says it must
	// be said whole, so figures give way to it.
	Middle      string
	MiddleStyle lipgloss.Style
	Whole       bool
}

// View renders the status line at width.
func View(st kit.StatusStyles, width int, p Parts) string {
	sep := st.Separator.Render(" · ")
	sepW := ansi.StringWidth(" · ")

	var left []string
	if p.Demo {
		left = append(left, st.Badge.Render(" demo "))
	}
	model := p.Model
	if model == "" {
		model = "no model"
	}
	left = append(left, st.Model.Render(safetext.Line(model, 32)))
	l := strings.Join(left, " ")

	right := append([]string(nil), p.Keep...)
	keep := len(right) // never given up
	for _, f := range p.Figures {
		if f != "" {
			right = append(right, st.Usage.Render(f))
		}
	}
	rightW := func() int {
		if len(right) == 0 {
			return 0
		}
		return ansi.StringWidth(strings.Join(right, sep)) + sepW
	}
	need := ansi.StringWidth(l) // figures that do not fit go whole, never cut
	if p.Whole {
		need += sepW + ansi.StringWidth(p.Middle)
	}
	for len(right) > keep && need+rightW() > width {
		right = right[:len(right)-1]
	}
	line := l
	if room := width - ansi.StringWidth(l) - sepW - rightW(); p.Middle != "" && room >= 8 {
		line += sep + p.MiddleStyle.Render(safetext.Line(p.Middle, room))
	}
	if len(right) > 0 {
		r := strings.Join(right, sep)
		gap := width - ansi.StringWidth(line) - ansi.StringWidth(r)
		if gap < sepW {
			line += sep + r
		} else {
			line += strings.Repeat(" ", gap) + r
		}
	}
	return ansi.Truncate(line, width, "…")
}

// Server is the model server as the status line says it: its kind and
// host:port, with the path only when it is not the usual /v1.
func Server(kind, rawURL string) string {
	return strings.TrimSpace(kind + " " + shortURL(rawURL))
}

func shortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	if p := strings.TrimSuffix(u.Path, "/"); p != "" && p != "/v1" {
		return u.Host + p
	}
	return u.Host
}

// Tools is "tools 1.2k/2.0k" — what the last run sent for tool metadata
// against its budget — with "+N deferred" when tools were moved behind
// tool_search (SPEC F2). Empty before a run that offered tools (ok false).
func Tools(p agent.ToolPlanSummary, ok bool) string {
	if !ok || p.Inline+p.Deferred == 0 {
		return ""
	}
	s := fmt.Sprintf("tools %s/%s", kit.Tokens(p.Sent), kit.Tokens(p.Budget))
	if p.Deferred > 0 {
		s += fmt.Sprintf(" +%d deferred", p.Deferred)
	}
	return s
}

// Context is "ctx 1.2k/8.2k" from the last Usage event (ok false: none
// yet), with "(-N earlier)" when the request left out that many earlier
// messages to fit the window, and "~" before the figure when the server
// reported no usage and it is vouch's estimate (SPEC F4). window is the
// model's context window, 0 when unknown.
func Context(u agent.Usage, ok bool, window int) string {
	if !ok {
		if window > 0 {
			return "ctx " + kit.Tokens(window)
		}
		return ""
	}
	used := u.PromptTokens + u.CompletionTokens
	s := "ctx " + kit.Tokens(used)
	if u.Estimated {
		s = "ctx ~" + kit.Tokens(used)
	}
	if window > 0 {
		s += "/" + kit.Tokens(window)
	}
	if u.LeftOut > 0 {
		s += " (-" + kit.Tokens(u.LeftOut) + " earlier)" // a long conversation leaves out tens of thousands
	}
	return s
}

// Rate is the generation rate: measured live from deltas counted between
// first and last while streaming, else the one the last Usage reported.
func Rate(deltas int, first, last time.Time, u agent.Usage, ok bool) string {
	if deltas > 1 {
		if d := last.Sub(first).Seconds(); d >= 0.5 {
			return fmt.Sprintf("%.0f tok/s", float64(deltas)/d)
		}
	}
	if ok && u.TokensPerSecond > 0 {
		return fmt.Sprintf("%.0f tok/s", u.TokensPerSecond)
	}
	return ""
}
