package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
	"vouch/tui/settings/settingstest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// fakeCatalog serves servers and tools; it records every switch and fails
// as told.
type fakeCatalog struct {
	mu      sync.Mutex
	servers []settings.ServerView
	tools   []settings.ToolView
	set     []string
	errs    map[string]error // by op: tools, servers, set
}

func (f *fakeCatalog) ListServers(context.Context) ([]settings.ServerView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.servers), f.errs["servers"]
}

func (f *fakeCatalog) Tools(context.Context) ([]settings.ToolView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.tools), f.errs["tools"]
}

func (f *fakeCatalog) SetToolEnabled(_ context.Context, identity string, enabled bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set = append(f.set, fmt.Sprintf("%s=%v", identity, enabled))
	return f.errs["set"]
}

func (f *fakeCatalog) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.set)
}

func catalog() *fakeCatalog {
	return &fakeCatalog{
		servers: []settings.ServerView{
			{ID: "gh", Name: "github", Active: true, Status: settings.ServerConnected},
			{ID: "fs", Name: "files", Active: false},
		},
		tools: []settings.ToolView{
			// Listed out of server order: the page groups them.
			{Identity: "mcp:fs:read", ServerID: "fs", ServerName: "files", Name: "read", Description: "Read a file.", Enabled: true},
			{Identity: "mcp:gh:repo_list", ServerID: "gh", ServerName: "github", Name: "repo_list", Title: "List repositories",
				Executable: true, Enabled: true, Claims: []string{"readOnlyHint: true"}, Tokens: 1200},
			{Identity: "mcp:gh:repo_delete", ServerID: "gh", ServerName: "github", Name: "repo_delete", Executable: true, Changed: true},
		},
		errs: map[string]error{},
	}
}

// shown returns the Tools page over the conversation of sc, focused and
// loaded.
func shown(t *testing.T, sc Catalog) Page {
	t.Helper()
	p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), Conversation(sc)).SetSize(76, 13).Focus()
	return step(t, p.(Page), kittest.Run(t, cmd))
}

func step(t *testing.T, p Page, msgs ...tea.Msg) Page {
	t.Helper()
	for _, msg := range msgs {
		next, _, _ := p.Update(msg)
		p = next.(Page)
	}
	return p
}

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyEsc   = tea.KeyMsg{Type: tea.KeyEsc}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keySpace = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
)

func letter(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

func identities(ts []settings.ToolView) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Identity
	}
	return out
}

// TestToolsPageSwitchesExactlyTheSelectedTool: the tools show grouped in
// the servers' order, with why a tool cannot run, its cost, a changed
// definition marked, and the focused one's claims labelled unverified;
// space switches exactly the selected tool, which moves only once the
// backend answered and takes no second switch meanwhile; a failure leaves
// it and is one sentence; typing after / filters and no letter switches
// anything; before the load nothing switches (SPEC D2, D8, F1; issue 3).
func TestToolsPageSwitchesExactlyTheSelectedTool(t *testing.T) {
	t.Run("grouped, marked and claimed", func(t *testing.T) {
		p := shown(t, catalog())
		if got, want := identities(p.Visible()), []string{"mcp:gh:repo_list", "mcp:gh:repo_delete", "mcp:fs:read"}; !slices.Equal(got, want) {
			t.Errorf("shown in the order %v, want %v", got, want)
		}
		v := p.View()
		for _, want := range []string{"github  ● connected", "files  ○ inactive", "[x] repo_list", "List repositories", "1.2k tok",
			"server claims (unverified): readOnlyHint: true", policy.MarkChanged, "unavailable: server inactive", "3 tools, 2 on for this conversation"} {
			if !strings.Contains(v, want) {
				t.Errorf("the page does not show %q:\n%s", want, v)
			}
		}
	})
	t.Run("space switches exactly the selected tool once answered", func(t *testing.T) {
		sc := catalog()
		p := step(t, shown(t, sc), keyDown)
		next, _, cmd := p.Update(keySpace)
		p = next.(Page)
		if !p.Pending("mcp:gh:repo_delete") || !strings.Contains(p.View(), "[·] repo_delete") {
			t.Fatalf("the switch is not shown pending:\n%s", p.View())
		}
		if _, _, again := p.Update(keySpace); again != nil {
			t.Error("a second space acted while the first was out")
		}
		done := kittest.Run(t, cmd)
		if want := []string{"mcp:gh:repo_delete=true"}; !slices.Equal(sc.got(), want) {
			t.Fatalf("the catalog got %v, want %v", sc.got(), want)
		}
		if sel, _ := p.Selected(); sel.Enabled {
			t.Error("the switch moved before the answer")
		}
		p = step(t, p, done)
		if sel, _ := p.Selected(); !sel.Enabled || !strings.Contains(p.View(), "repo_delete is on for this conversation.") {
			t.Errorf("after the answer:\n%s", p.View())
		}
	})
	t.Run("a failed switch stays and is one sentence", func(t *testing.T) {
		sc := catalog()
		sc.errs["set"] = errors.New("the conversation is read-only")
		next, _, cmd := shown(t, sc).Update(keySpace)
		p := step(t, next.(Page), kittest.Run(t, cmd))
		if sel, _ := p.Selected(); !sel.Enabled || p.PendingCount() != 0 || !strings.Contains(p.View(), "✗ Could not turn off the tool: the conversation is read-only.") {
			t.Errorf("failed switch:\n%s", p.View())
		}
	})
	t.Run("typing after / filters and switches nothing", func(t *testing.T) {
		sc := catalog()
		p := shown(t, sc)
		p = step(t, p, letter('/'))
		if !p.TakesText() {
			t.Fatal("/ did not start the filter")
		}
		for _, k := range kittest.Runes("delete") {
			p = step(t, p, k)
		}
		if got := identities(p.Visible()); !slices.Equal(got, []string{"mcp:gh:repo_delete"}) || p.Filter() != "delete" {
			t.Errorf("filter %q shows %v", p.Filter(), got)
		}
		p = step(t, p, keyEnter)
		if p.TakesText() || p.Filter() != "delete" {
			t.Errorf("enter: filtering %v, filter %q", p.TakesText(), p.Filter())
		}
		if _, action, _ := p.Update(keyEsc); action != nil {
			t.Errorf("esc with a filter closed the page: %#v", action)
		}
		p = step(t, p, keyEsc)
		if len(p.Visible()) != 3 || p.Filter() != "" {
			t.Errorf("esc did not clear the filter: %q", p.Filter())
		}
		if len(sc.got()) != 0 {
			t.Errorf("typing switched %v", sc.got())
		}
	})
	t.Run("a filter matching nothing says so", func(t *testing.T) {
		p := step(t, shown(t, catalog()), letter('/'), letter('z'), letter('z'))
		if !strings.Contains(p.View(), "No tool matches the filter.") {
			t.Errorf("no match:\n%s", p.View())
		}
		if _, _, cmd := step(t, p, keyEnter).Update(keySpace); cmd != nil {
			t.Error("space switched a tool the filter hides")
		}
	})
	t.Run("failed loads are one sentence", func(t *testing.T) {
		for op, want := range map[string]string{
			"tools":   "✗ Could not list the tools: database is locked.",
			"servers": "✗ Could not list the MCP servers: database is locked.",
		} {
			sc := catalog()
			sc.errs[op] = errors.New("database is locked")
			if v := shown(t, sc).View(); !strings.Contains(v, want) {
				t.Errorf("%s failed:\n%s", op, v)
			}
		}
	})
	t.Run("nothing switches before the load", func(t *testing.T) {
		sc := catalog()
		p, _ := New(kittest.Common(80, 18), DefaultKeyMap(), Conversation(sc)).SetSize(76, 13).Focus()
		if _, _, cmd := p.Update(keySpace); cmd != nil {
			t.Error("space acted before the load")
		}
		if !strings.Contains(p.View(), "Loading tools…") {
			t.Errorf("no loading line:\n%s", p.View())
		}
	})
	t.Run("another source's answers are dropped", func(t *testing.T) {
		p := shown(t, catalog())
		p = step(t, p, ListedMsg{Scope: "profile:notes", Seq: p.Seq}, ToggledMsg{Scope: "profile:notes", Identity: "mcp:gh:repo_list"})
		if len(p.Tools()) != 3 || p.Notice != "" {
			t.Errorf("a profile's answer reached the conversation's page: %d tools, %q", len(p.Tools()), p.Notice)
		}
	})
	t.Run("without servers it says so", func(t *testing.T) {
		p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), Conversation(nil)).Focus()
		if cmd != nil || !strings.Contains(p.View(), "MCP servers are not available here") {
			t.Errorf("no catalog:\n%s", p.View())
		}
	})
}

// TestToolsPageNeutralisesServerText: a tool's name, title, description
// and claims, a server's name and status, and a failure quoting them, are
// drawn without control sequences (SPEC D2, D3).
func TestToolsPageNeutralisesServerText(t *testing.T) {
	sc := catalog()
	sc.servers = []settings.ServerView{{ID: "h", Name: kittest.Hostile, Status: settings.ServerStatus(kittest.Hostile), Active: true}}
	sc.tools = []settings.ToolView{{Identity: "mcp:h:x", ServerID: "h", ServerName: kittest.Hostile, Name: kittest.Hostile, Title: kittest.Hostile, Description: kittest.Hostile,
		Claims: []string{kittest.Hostile}}, {Identity: "mcp:other:y", ServerID: "other", ServerName: kittest.Hostile, Name: kittest.Hostile}}
	p := shown(t, sc)
	kittest.Clean(t, p.View())
	kittest.Clean(t, step(t, p, ToggledMsg{Identity: "mcp:h:x", Err: errors.New(kittest.Hostile)}).View())
	p.pending = map[string]bool{"mcp:h:x": true}
	kittest.Clean(t, step(t, p, ToggledMsg{Identity: "mcp:h:x", Enabled: true}).View())
}

// TestToolsPageFits: a hundred tools with long names, descriptions and
// claims and a long failure fit the area Settings gives the page at
// 80x24 and 60x16, the selected tool on screen.
func TestToolsPageFits(t *testing.T) {
	sc := catalog()
	for i := range 100 {
		sc.tools = append(sc.tools, settings.ToolView{Identity: fmt.Sprint("mcp:gh:", i), ServerID: "gh", Name: fmt.Sprintf("%s%03d", strings.Repeat("operation_", 4), i),
			Title: strings.Repeat("Title ", 10), Description: strings.Repeat("does a thing ", 20), Claims: []string{strings.Repeat("destructiveHint: false ", 8)},
			Tokens: 123456, Changed: i%3 == 0})
	}
	sc.errs["set"] = errors.New(strings.Repeat("the store refused ", 10))
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			s := settingstest.Framed(New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), Conversation(sc)), sz.W, sz.H)
			pg, cmd := s.Shown().Focus()
			p := step(t, pg.(Page), kittest.Run(t, cmd))
			for range 40 {
				p = step(t, p, keyDown)
			}
			next, _, set := p.Update(keySpace)
			p = step(t, next.(Page), kittest.Run(t, set))
			kittest.Fits(t, p.View(), p.Width, p.Height)
			v := settingstest.Framed(p, sz.W, sz.H).View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "› [") || !strings.Contains(v, "✗ Could not turn") {
				t.Errorf("the selected tool or the failure does not show:\n%s", v)
			}
		})
	}
}
