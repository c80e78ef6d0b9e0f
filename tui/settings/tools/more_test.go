package tools

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/tui/settings"
)

// TestToolsPageSaysWhereMoreToolsLie (SPEC L2; issue 28 item 10): when the
// tools do not fit, the page says how many lines lie below and, once the
// cursor moved down, above; the built-in tools say they are vouch's own
// instead of "server claims (unverified): none".
func TestToolsPageSaysWhereMoreToolsLie(t *testing.T) {
	f := catalog()
	f.servers = append(f.servers, settings.ServerView{ID: "builtin", Name: "built-in", Active: true, Status: settings.ServerConnected})
	for _, name := range []string{"fs_list", "fs_read", "fs_search", "fs_write", "fs_edit"} {
		f.tools = append(f.tools, settings.ToolView{Identity: "builtin:" + name, ServerID: "builtin", ServerName: "built-in",
			Name: name, Description: "A workspace tool.", Executable: true})
	}
	for i := range 8 {
		f.tools = append(f.tools, settings.ToolView{Identity: fmt.Sprintf("mcp:gh:t%d", i), ServerID: "gh", ServerName: "github",
			Name: fmt.Sprintf("t%d", i), Executable: true})
	}
	p := shown(t, f)
	v := ansi.Strip(p.View())
	if !strings.Contains(v, "more lines below") || strings.Contains(v, "above") {
		t.Fatalf("at the top: no marker below, or one above:\n%s", v)
	}
	for range len(f.tools) - 1 {
		p = step(t, p, keyDown)
	}
	v = ansi.Strip(p.View())
	if !strings.Contains(v, "more lines above") || strings.Contains(v, "below") {
		t.Fatalf("at the bottom: no marker above, or one below:\n%s", v)
	}
	sel, _ := p.Selected()
	if !strings.HasPrefix(sel.Identity, "builtin:") {
		for range len(f.tools) {
			if sel, _ = p.Selected(); strings.HasPrefix(sel.Identity, "builtin:") {
				break
			}
			p = step(t, p, tea.KeyMsg{Type: tea.KeyUp})
		}
	}
	v = ansi.Strip(p.View())
	if !strings.Contains(v, "built into vouch; runs on this machine") || strings.Contains(v, "server claims (unverified): none") {
		t.Errorf("a built-in tool's claims line:\n%s", v)
	}
}
