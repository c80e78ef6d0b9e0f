package settings

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// pingMsg is a result message, not a key: it goes to every page.
type pingMsg struct{}

// fakePage records what reaches it and fills exactly the size it was
// given; its action is returned for every message.
type fakePage struct {
	kit.PageFrame
	title  string
	got    []string // what reached it: key names and "ping"
	text   bool     // takes typed text
	focus  int      // times focused
	action kit.Action
}

type focusMsg struct{ title string }

func (p fakePage) Title() string { return p.title }
func (p fakePage) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("x"), key.WithHelp("x", p.title+" act"))}
}
func (p fakePage) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
func (p fakePage) TakesText() bool           { return p.text }

func (p fakePage) Update(msg tea.Msg) (Page, kit.Action, tea.Cmd) {
	p.got = slices.Clone(p.got)
	switch msg := msg.(type) {
	case tea.KeyMsg:
		p.got = append(p.got, msg.String())
	case pingMsg:
		p.got = append(p.got, "ping")
	}
	return p, p.action, nil
}

func (p fakePage) View() string {
	lines := make([]string, p.Height)
	for i := range lines {
		lines[i] = strings.Repeat("x", p.Width)
	}
	return strings.Join(lines, "\n")
}

func (p fakePage) SetSize(w, h int) Page { p.Resize(w, h); return p }
func (p fakePage) Focus() (Page, tea.Cmd) {
	p.Active = true
	p.focus++
	title := p.title
	return p, func() tea.Msg { return focusMsg{title} }
}
func (p fakePage) Blur() Page { p.Active = false; return p }

func pages(titles ...string) []Page {
	out := make([]Page, len(titles))
	for i, t := range titles {
		out[i] = fakePage{title: t}
	}
	return out
}

func open(t *testing.T, w, h int, ps ...Page) Model {
	t.Helper()
	m := New(kittest.Common(w, h), DefaultKeyMap(), "Tools & Workflows", ps...)
	if cmd := m.Init(); cmd == nil || cmd() != (focusMsg{ps[0].Title()}) {
		t.Fatal("Init did not load the first page")
	}
	if !m.Shown().Focused() {
		t.Fatal("Init did not show the first page")
	}
	return m.SetSize(w, h).(Model)
}

func send(t *testing.T, m Model, msg tea.Msg) (Model, kit.Action, tea.Cmd) {
	t.Helper()
	next, a, cmd := m.Update(msg)
	return next.(Model), a, cmd
}

func got(m Model, i int) []string { return m.Pages()[i].(fakePage).got }

var (
	keyTab      = tea.KeyMsg{Type: tea.KeyTab}
	keyShiftTab = tea.KeyMsg{Type: tea.KeyShiftTab}
	keyX        = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'x'}}
	keyHelp     = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'?'}}
)

// TestSettingsRoutesKeysToThePageShown: tab and shift+tab move between
// pages, blurring one and focusing (loading) the next, and the help names
// the page tab goes to; every other key reaches only the page shown, a
// result message reaches every page and only the shown page's action
// counts; "?" asks for the full help unless the page takes text (SPEC L2;
// issue 18 item 7).
func TestSettingsRoutesKeysToThePageShown(t *testing.T) {
	t.Run("tab focuses the next page and wraps", func(t *testing.T) {
		m := open(t, 80, 24, pages("MCP Servers", "Tools", "Policy")...)
		if h := m.ShortHelp(); h[len(h)-1].Help().Desc != "tools" {
			t.Errorf("tab's help says %q, want the next page", h[len(h)-1].Help().Desc)
		}
		m, _, cmd := send(t, m, keyTab)
		if m.Shown().Title() != "Tools" || cmd == nil || cmd() != (focusMsg{"Tools"}) {
			t.Fatalf("tab shows %q", m.Shown().Title())
		}
		if m.Pages()[0].Focused() || !m.Pages()[1].Focused() {
			t.Error("tab did not blur the page it left")
		}
		m, _, _ = send(t, m, keyShiftTab)
		m, _, _ = send(t, m, keyShiftTab)
		if m.Shown().Title() != "Policy" {
			t.Errorf("shift+tab twice from Tools shows %q, want Policy", m.Shown().Title())
		}
		if !strings.Contains(m.View(), "[Policy]") {
			t.Errorf("the tab of the page shown is not marked:\n%s", m.View())
		}
		if got(m, 0) != nil || got(m, 1) != nil || got(m, 2) != nil {
			t.Error("a page switch reached a page as a key")
		}
	})
	t.Run("one page has no page switch", func(t *testing.T) {
		m := open(t, 80, 24, pages("Notifications")...)
		m, _, cmd := send(t, m, keyTab)
		if cmd != nil || !slices.Equal(got(m, 0), []string{"tab"}) {
			t.Errorf("tab with one page: cmd %v, page got %v; want tab to be the page's", cmd != nil, got(m, 0))
		}
	})
	t.Run("keys go to the page shown only", func(t *testing.T) {
		ps := pages("MCP Servers", "Tools")
		p := ps[1].(fakePage)
		p.action = kit.CloseModal{}
		ps[1] = p
		m := open(t, 80, 24, ps...)
		m, action, _ := send(t, m, keyX)
		if !slices.Equal(got(m, 0), []string{"x"}) || got(m, 1) != nil || action != nil {
			t.Fatalf("x reached %v and %v, action %v", got(m, 0), got(m, 1), action)
		}
		m, action, _ = send(t, m, pingMsg{})
		if !slices.Equal(got(m, 0), []string{"x", "ping"}) || !slices.Equal(got(m, 1), []string{"ping"}) {
			t.Errorf("a result reached %v and %v, want every page", got(m, 0), got(m, 1))
		}
		if action != nil {
			t.Errorf("a hidden page's action %v was taken", action)
		}
		m, _, _ = send(t, m, keyTab)
		if _, action, _ = send(t, m, keyX); action != (kit.CloseModal{}) {
			t.Errorf("the shown page's action: %v", action)
		}
	})
	t.Run("? toggles help unless the page takes text", func(t *testing.T) {
		ps := pages("Skills")
		m := open(t, 80, 24, ps...)
		if _, action, _ := send(t, m, keyHelp); action != (kit.ToggleHelp{}) {
			t.Errorf("?: action %v, want the help toggled", action)
		}
		p := ps[0].(fakePage)
		p.text = true
		m = open(t, 80, 24, p)
		m, action, _ := send(t, m, keyHelp)
		if action != nil || !slices.Equal(got(m, 0), []string{"?"}) {
			t.Errorf("? while typing: action %v, page got %v; want the page to get it", action, got(m, 0))
		}
	})
	t.Run("reveal refreshes the page shown", func(t *testing.T) {
		m := open(t, 80, 24, pages("MCP Servers", "Tools")...)
		next, cmd := m.Reveal()
		if cmd == nil || cmd() != (focusMsg{"MCP Servers"}) || next.(Model).Pages()[0].(fakePage).focus != 2 {
			t.Error("reveal did not refocus the page shown")
		}
	})
}

// TestStatusBadgeNeutralises: a status the backend filled with control
// sequences reaches the badge neutralised, within its width; statuses
// read without colour (SPEC D3, B5).
func TestStatusBadgeNeutralises(t *testing.T) {
	st := kit.DefaultStyles(nil, kit.DefaultTheme()).Modal
	for _, tc := range []struct {
		name   string
		status ServerStatus
		want   string
	}{
		{"connected", ServerConnected, "● connected"},
		{"unsupported", ServerUnsupported, "✗ unsupported"},
		{"stale", ServerStale, "◐ stale"},
		{"hostile", ServerStatus(kittest.Hostile), "? "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := StatusBadge(st, tc.status)
			kittest.Clean(t, b)
			if !strings.HasPrefix(b, tc.want) || lipgloss.Width(b) > StatusWidth {
				t.Errorf("badge %q, want %q within %d cells", b, tc.want, StatusWidth)
			}
		})
	}
	if StatusOf(ServerView{Active: true}) != ServerConnecting || StatusOf(ServerView{}) != ServerInactive {
		t.Error("an empty status is not derived from Active")
	}
	a := []ServerView{{ID: "s", FetchedAt: kittest.T0}}
	b := []ServerView{{ID: "s", FetchedAt: kittest.T0.In(time.FixedZone("x", 3600))}}
	if !SameServers(a, b) || SameServers(a, []ServerView{{ID: "s", FetchedAt: kittest.T0, Err: "x"}}) {
		t.Error("SameServers compares instants or misses a changed field")
	}
}

// TestSettingsFits: with every page of Tools & Workflows and a page that
// fills the size it is given, Settings fits 80x24 and 60x16; the tabs that
// do not fit are cut, not wrapped.
func TestSettingsFits(t *testing.T) {
	titles := []string{"MCP Servers", "Tools", "Policy", "Skills", "Server skills", "Workflows", "Profiles", "Runs", "Notifications"}
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			m := open(t, sz.W, sz.H, pages(titles...)...)
			m, _, _ = send(t, m, keyTab)
			kittest.Fits(t, m.View(), sz.W, sz.H)
			pw, ph := m.Shown().(fakePage).Width, m.Shown().(fakePage).Height
			if pw <= 0 || ph <= 0 || pw > sz.W || ph > sz.H-headerLines {
				t.Errorf("the page was given %dx%d of %dx%d", pw, ph, sz.W, sz.H)
			}
		})
	}
}
