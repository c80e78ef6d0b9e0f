package toolselect

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// fakeSource serves a catalog like GitHub's: 117 tools of one server that
// ask, plus three built-in ones; it records ApplyTools.
type fakeSource struct {
	mu      sync.Mutex
	choices Choices
	applied [][]string
	asDef   []bool
}

func catalog() Choices {
	c := Choices{Window: 8192, Budget: 2048, MetaTokens: 400}
	for _, n := range []string{"fs_read", "fs_list", "fs_write"} {
		c.Tools = append(c.Tools, Choice{Identity: "builtin:" + n, Server: "built-in", Name: n, Tokens: 150, Asks: n == "fs_write", On: true})
	}
	for i := 1; i <= 117; i++ {
		c.Tools = append(c.Tools, Choice{Identity: fmt.Sprintf("mcp:gh:repo_op_%03d", i), Server: "github",
			Name: fmt.Sprintf("repo_op_%03d", i), Tokens: 100 + (i%7)*60, Asks: true, On: true})
	}
	return c
}

func (f *fakeSource) ToolChoices(context.Context, int) (Choices, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.choices, nil
}

func (f *fakeSource) ApplyTools(_ context.Context, _, off []string, asDefault bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, off)
	f.asDef = append(f.asDef, asDefault)
	return nil
}

func open(t *testing.T, w, h int, order Order) (Pane, *fakeSource) {
	t.Helper()
	src := &fakeSource{choices: catalog()}
	c := kit.Common{Width: w, Height: h, Styles: kit.DefaultStyles(nil, kit.DefaultTheme())}
	p := New(c, DefaultKeyMap(), src, 8192, order, "The tools of github do not fit qwen2.5-7b's tool budget; choose the ones this conversation needs.")
	m, _, _ := p.Update(p.Init()())
	return m.(Pane), src
}

func press(p Pane, keys ...tea.KeyMsg) Pane {
	for _, k := range keys {
		m, _, _ := p.Update(k)
		p = m.(Pane)
	}
	return p
}

var (
	keySpace = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyTab   = tea.KeyMsg{Type: tea.KeyTab}
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyCtrlT = tea.KeyMsg{Type: tea.KeyCtrlT}
	keyBack  = tea.KeyMsg{Type: tea.KeyBackspace}
)

// TestGoldenSelector pins the selector at 80x24 and 60x16 (issue 18 item
// 22): grouped by server, the running total over the budget; filtered as
// typed; sorted by cost. Regenerate with go test ./tui/toolselect -update.
func TestGoldenSelector(t *testing.T) {
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		name := fmt.Sprintf("%dx%d", sz.W, sz.H)
		t.Run(name+"_grouped", func(t *testing.T) {
			p, _ := open(t, sz.W, sz.H, ByServer)
			golden.RequireEqual(t, []byte(p.View()))
		})
		t.Run(name+"_filtered", func(t *testing.T) {
			p, _ := open(t, sz.W, sz.H, ByServer)
			p = press(p, kittest.Runes("op_11")...)
			golden.RequireEqual(t, []byte(p.View()))
		})
		t.Run(name+"_by_cost", func(t *testing.T) {
			p, _ := open(t, sz.W, sz.H, ByCost)
			golden.RequireEqual(t, []byte(p.View()))
		})
	}
}

// TestSelectorTotalAndApply: the running total follows each switch; when
// the asking tools switched on fit, it says so; enter applies exactly the
// tools switched off, ctrl+t also keeps them as the default, esc applies
// nothing; typed text filters and backspace erases it.
func TestSelectorTotalAndApply(t *testing.T) {
	p, src := open(t, 80, 18, ByCost)
	if !strings.Contains(p.View(), "✗ ") {
		t.Fatalf("120 tools fit a 2k budget?\n%s", p.View())
	}
	// Off with the costliest, one by one, until it fits.
	var off int
	for !strings.Contains(p.View(), "✓ ") && off < 200 {
		p = press(p, keySpace, keyDown)
		off++
	}
	if off == 0 || off >= 120 {
		t.Fatalf("switched %d off", off)
	}
	sent, fits := Sent(p.choices, p.on)
	if !fits || sent > p.choices.Budget {
		t.Errorf("sent %d of %d, fits %v", sent, p.choices.Budget, fits)
	}
	m, action, cmd := p.Update(keyEnter)
	if action != nil || cmd == nil {
		t.Fatalf("enter: action %v, cmd %v", action, cmd)
	}
	applied := cmd().(AppliedMsg)
	if applied.off != off || len(src.applied) != 1 || len(src.applied[0]) != off || src.asDef[0] {
		t.Fatalf("applied %+v, source got %v %v; want %d off, not as default", applied, src.applied, src.asDef, off)
	}
	if _, action, cmd := m.Update(applied); action != (kit.CloseModal{}) || cmd().(ChosenMsg).Off != off {
		t.Errorf("after applying: action %v, want close and the root told", action)
	}

	p, src = open(t, 80, 18, ByServer)
	p = press(p, kittest.Runes("repo_op_117")...)
	if len(p.visible) != 1 || p.Filter() != "repo_op_117" {
		t.Fatalf("filter %q shows %d", p.Filter(), len(p.visible))
	}
	p = press(p, keySpace, keyBack)
	if p.Filter() != "repo_op_11" || p.On("mcp:gh:repo_op_117") {
		t.Errorf("filter %q, repo_op_117 on %v", p.Filter(), p.On("mcp:gh:repo_op_117"))
	}
	_, _, cmd = p.Update(keyCtrlT)
	cmd()
	if len(src.asDef) != 1 || !src.asDef[0] || len(src.applied[0]) != 1 {
		t.Errorf("ctrl+t applied %v as default %v", src.applied, src.asDef)
	}
	p, src = open(t, 80, 18, ByServer)
	p = press(p, keySpace)
	if _, action, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEsc}); action != (kit.CloseModal{}) || cmd != nil || len(src.applied) != 0 {
		t.Errorf("esc: action %v, cmd %v, applied %v", action, cmd, src.applied)
	}
	if p = press(p, keyTab); p.Order() != ByCost {
		t.Errorf("tab did not sort by cost")
	}
}

// TestSelectorAllShown: ctrl+a switches every tool the filter shows off,
// and on again, and leaves the others as they were.
func TestSelectorAllShown(t *testing.T) {
	p, _ := open(t, 80, 18, ByServer)
	p = press(p, kittest.Runes("github")...)
	p = press(p, tea.KeyMsg{Type: tea.KeyCtrlA})
	if p.On("mcp:gh:repo_op_001") || p.On("mcp:gh:repo_op_117") || !p.On("builtin:fs_read") {
		t.Fatalf("ctrl+a with github shown: repo_op_001 %v, fs_read %v", p.On("mcp:gh:repo_op_001"), p.On("builtin:fs_read"))
	}
	if sent, fits := Sent(p.choices, p.on); !fits || sent != 450 {
		t.Errorf("built-in tools alone: %d, fits %v", sent, fits)
	}
	p = press(p, tea.KeyMsg{Type: tea.KeyCtrlA})
	if !p.On("mcp:gh:repo_op_050") {
		t.Error("ctrl+a again did not switch them on")
	}
}
