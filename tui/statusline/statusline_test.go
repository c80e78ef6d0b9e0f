package statusline

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/tui/kit"
)

func styles() kit.StatusStyles {
	return kit.DefaultStyles(lipgloss.NewRenderer(nil), kit.NoColorTheme()).Status
}

// TestViewGivesUpFiguresLeastNeededFirst (issue 18 item 12): a notice said
// whole makes the rate go first, then the tools, then the context; the
// kept parts stay whatever the width, and the line never exceeds it.
func TestViewGivesUpFiguresLeastNeededFirst(t *testing.T) {
	p := Parts{Model: "qwen2.5-7b", Keep: []string{"1 waiting"},
		Figures:     []string{"ctx 1.2k/8.2k", "tools 900/2.0k", "12 tok/s"},
		Middle:      "Model set to qwen2.5-7b; press ctrl+o to pick another.",
		MiddleStyle: lipgloss.NewStyle(), Whole: true}
	for _, tc := range []struct {
		width   int
		want    []string
		notWant []string
	}{
		{width: 160, want: []string{"1 waiting", "ctx 1.2k/8.2k", "tools 900/2.0k", "12 tok/s", "press ctrl+o to pick another."}},
		{width: 120, want: []string{"1 waiting", "ctx 1.2k/8.2k", "tools 900/2.0k", "press ctrl+o"}, notWant: []string{"tok/s"}},
		{width: 100, want: []string{"1 waiting", "ctx 1.2k/8.2k", "press ctrl+o"}, notWant: []string{"tok/s", "tools"}},
		{width: 85, want: []string{"1 waiting", "press ctrl+o"}, notWant: []string{"tok/s", "tools", "ctx"}},
		{width: 60, want: []string{"1 waiting"}, notWant: []string{"ctx"}},
	} {
		line := ansi.Strip(View(styles(), tc.width, p))
		if w := ansi.StringWidth(line); w > tc.width {
			t.Errorf("width %d: line is %d cells: %q", tc.width, w, line)
		}
		for _, s := range tc.want {
			if !strings.Contains(line, s) {
				t.Errorf("width %d: line lacks %q: %q", tc.width, s, line)
			}
		}
		for _, s := range tc.notWant {
			if strings.Contains(line, s) {
				t.Errorf("width %d: line has %q, which should have given way: %q", tc.width, s, line)
			}
		}
	}
}

// TestViewNeutralises (SPEC D3): a model's name from the server cannot
// carry a control sequence onto the screen.
func TestViewNeutralises(t *testing.T) {
	line := View(styles(), 80, Parts{Model: "evil\x1b]0;title\x07", Middle: "note \x1b[2J", MiddleStyle: lipgloss.NewStyle()})
	if strings.ContainsAny(line, "\x07") || strings.Contains(line, "\x1b]") || strings.Contains(line, "\x1b[2J") {
		t.Errorf("status line carries a control sequence: %q", line)
	}
	if !strings.Contains(ansi.Strip(View(styles(), 80, Parts{})), "no model") {
		t.Error("an empty model does not say no model")
	}
}

func TestFigures(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct{ name, got, want string }{
		{"server v1", Server("llama.cpp", "http://127.0.0.1:8080/v1"), "llama.cpp 127.0.0.1:8080"},
		{"server path", Server("", "http://127.0.0.1:8080/api/v2/"), "127.0.0.1:8080/api/v2"},
		{"server unparsable", Server("x", "::"), "x ::"},
		{"tools none", Tools(agent.ToolPlanSummary{Sent: 10}, false), ""},
		{"tools deferred", Tools(agent.ToolPlanSummary{Inline: 2, Deferred: 3, Sent: 1200, Budget: 2048}, true), "tools 1.2k/2.0k +3 deferred"},
		{"ctx window only", Context(agent.Usage{}, false, 8192), "ctx 8.2k"},
		{"ctx nothing", Context(agent.Usage{}, false, 0), ""},
		{"ctx estimate left out", Context(agent.Usage{PromptTokens: 1000, CompletionTokens: 200, Estimated: true, LeftOut: 30000}, true, 8192),
			"ctx ~1.2k/8.2k (-30k earlier)"},
		{"rate live", Rate(11, t0, t0.Add(time.Second), agent.Usage{TokensPerSecond: 3}, true), "11 tok/s"},
		{"rate too short to measure", Rate(3, t0, t0.Add(100*time.Millisecond), agent.Usage{TokensPerSecond: 3}, true), "3 tok/s"},
		{"rate none", Rate(0, t0, t0, agent.Usage{}, false), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
