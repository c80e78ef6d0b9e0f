package settings

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"vouch/tui/kit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Page is one page of Settings: a tab of its section. A page is a small
// Modal of its own, minus the stack: it gets keys only while shown, every
// other message always (each ignores what is not its own), and it asks the
// root for things through the same Actions a Modal returns, for instance
// OpenModal for the server editor.
//
// Pages live in packages of their own under tui/settings; the root builds
// them from the Backend's capabilities and hands them to [New]. A further
// page of Tools & Workflows drops in by implementing this interface.
type Page interface {
	help.KeyMap
	// Title names the page on its tab.
	Title() string
	// Update handles a message and returns the page, an Action for the
	// root (nil for none) and a Cmd.
	Update(msg tea.Msg) (Page, kit.Action, tea.Cmd)
	View() string
	// SetSize gives the page the cells it may use below the tabs.
	SetSize(width, height int) Page
	// Focus shows the page and returns the Cmd that loads or refreshes it;
	// Blur hides it.
	Focus() (Page, tea.Cmd)
	Blur() Page
	Focused() bool
}

// Model is the Settings modal (SPEC L2): a section title, a row of tabs
// and the page shown. Tab and shift+tab move between pages; every other key
// goes to the page shown. It fills the area above the input.
type Model struct {
	common  kit.Common
	keys    KeyMap
	section string
	pages   []Page
	active  int
}

// New returns Settings › section on its first page. The root passes the
// pages in tab order (for Tools & Workflows: MCP Servers, Tools, Policy,
// Skills, then the pages of the capabilities it discovers); a page whose
// backend is missing says so itself. New needs at least one page.
func New(c kit.Common, keys KeyMap, section string, pages ...Page) Model {
	st := Model{
		common:  c,
		keys:    keys,
		section: section,
		pages:   append([]Page(nil), pages...),
	}
	st.syncKeys()
	return st
}

// WithPages returns Settings with pages added after its own.
func (s Model) WithPages(pages ...Page) Model {
	s.pages = append(s.pages[:len(s.pages):len(s.pages)], pages...)
	s.syncKeys()
	return s
}

// Pages returns the pages in tab order.
func (s Model) Pages() []Page { return append([]Page(nil), s.pages...) }

// Shown returns the page shown.
func (s Model) Shown() Page { return s.pages[s.active] }

// Size is the area the root last gave Settings.
func (s Model) Size() (width, height int) { return s.common.Width, s.common.Height }

// Init implements Modal: it shows the first page, which starts loading.
func (s Model) Init() tea.Cmd {
	var cmd tea.Cmd
	s.pages[s.active], cmd = s.pages[s.active].Focus()
	return cmd
}

// KeyGrace implements Modal. Settings opens only on the person's own key,
// so no grace period is needed.
func (s Model) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap: the page's bindings, then the page
// switch.
func (s Model) ShortHelp() []key.Binding {
	return append(s.pages[s.active].ShortHelp(), s.keys.NextPage)
}

// FullHelp implements help.KeyMap.
func (s Model) FullHelp() [][]key.Binding {
	return append(s.pages[s.active].FullHelp(), []key.Binding{s.keys.NextPage, s.keys.PrevPage, s.helpKey()})
}

// SetSize implements Modal.
func (s Model) SetSize(width, height int) kit.Modal {
	s.common = s.common.Sized(width, height)
	w, h := s.pageSize()
	pages := make([]Page, len(s.pages))
	for i, p := range s.pages {
		pages[i] = p.SetSize(w, h)
	}
	s.pages = pages
	return s
}

// headerLines is the section title, the tabs and a blank line.
const headerLines = 3

// boxWidth is the width of the Settings box.
func (s Model) boxWidth() int { return min(s.common.Width-4, 100) }

// pageSize is the cells a page may use.
func (s Model) pageSize() (int, int) {
	st := s.common.Styles.Modal
	return kit.InnerWidth(st, s.boxWidth()), max(s.common.Height-st.Frame.GetVerticalFrameSize()-headerLines, 3)
}

// Update implements Modal.
func (s Model) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	if msg, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(msg, s.keys.NextPage):
			return s.show((s.active + 1) % len(s.pages))
		case key.Matches(msg, s.keys.PrevPage):
			return s.show((s.active + len(s.pages) - 1) % len(s.pages))
		case key.Matches(msg, s.keys.Help) && !s.takesText():
			return s, kit.ToggleHelp{}, nil // help.go
		}
		page, action, cmd := s.pages[s.active].Update(msg)
		s.pages = s.withPage(s.active, page)
		s.syncKeys()
		return s, action, cmd
	}
	// Results and ticks go to every page; each keeps only its own.
	var cmds []tea.Cmd
	var action kit.Action
	for i, p := range s.pages {
		page, a, cmd := p.Update(msg)
		s.pages = s.withPage(i, page)
		if i == s.active {
			action = a
		}
		cmds = append(cmds, cmd)
	}
	s.syncKeys()
	return s, action, tea.Batch(cmds...)
}

// Reveal implements kit.Revealer: a pane above Settings closed, so the page
// shown refreshes what that pane may have changed.
func (s Model) Reveal() (kit.Modal, tea.Cmd) {
	page, cmd := s.pages[s.active].Focus()
	s.pages = s.withPage(s.active, page)
	return s, cmd
}

// show switches to page i.
func (s Model) show(i int) (kit.Modal, kit.Action, tea.Cmd) {
	if i == s.active {
		return s, nil, nil
	}
	s.pages = s.withPage(s.active, s.pages[s.active].Blur())
	s.active = i
	page, cmd := s.pages[i].Focus()
	s.pages = s.withPage(i, page)
	s.syncKeys()
	return s, nil, cmd
}

// withPage returns the pages with page i replaced, copying the slice so an
// earlier Settings value keeps its own.
func (s Model) withPage(i int, p Page) []Page {
	pages := append([]Page(nil), s.pages...)
	pages[i] = p
	return pages
}

// syncKeys names the page the page switch goes to.
func (s *Model) syncKeys() {
	many := len(s.pages) > 1
	s.keys.NextPage.SetEnabled(many)
	s.keys.PrevPage.SetEnabled(many)
	if many {
		next := s.pages[(s.active+1)%len(s.pages)].Title()
		s.keys.NextPage.SetHelp("tab", strings.ToLower(next))
	}
}

// View implements Modal.
func (s Model) View() string {
	st := s.common.Styles.Modal
	inner, _ := s.pageSize()
	tabs := make([]string, len(s.pages))
	for i, p := range s.pages {
		if i == s.active {
			tabs[i] = st.ActiveTab.Render("[" + p.Title() + "]")
		} else {
			tabs[i] = st.Tab.Render(" " + p.Title() + " ")
		}
	}
	lines := []string{
		st.Title.Render("Settings › " + s.section),
		tabRow(tabs, s.active, inner, st.Detail.Render),
		"",
	}
	lines = append(lines, strings.Split(s.pages[s.active].View(), "\n")...)
	return kit.ModalBox(st, inner, s.common.Height-st.Frame.GetVerticalFrameSize(), lines)
}

// tabRow joins the rendered tabs with a space, or, when they do not fit in
// width, the run of tabs around the active one that fits, with ‹ and ›
// (rendered by mark) saying that more tabs lie that way: the current page
// is always in the row (issue 28 item 5).
func tabRow(tabs []string, active, width int, mark func(...string) string) string {
	if w := ansi.StringWidth(strings.Join(tabs, " ")); w <= width || len(tabs) == 0 {
		return strings.Join(tabs, " ")
	}
	const markWidth = 2 // "‹ " or " ›"
	first, last := active, active
	used := ansi.StringWidth(tabs[active])
	room := func(first, last int) int {
		r := width
		if first > 0 {
			r -= markWidth
		}
		if last < len(tabs)-1 {
			r -= markWidth
		}
		return r
	}
	for grew := true; grew; {
		grew = false
		if last+1 < len(tabs) && used+1+ansi.StringWidth(tabs[last+1]) <= room(first, last+1) {
			last++
			used += 1 + ansi.StringWidth(tabs[last])
			grew = true
		}
		if first > 0 && used+1+ansi.StringWidth(tabs[first-1]) <= room(first-1, last) {
			first--
			used += 1 + ansi.StringWidth(tabs[first])
			grew = true
		}
	}
	row := strings.Join(tabs[first:last+1], " ")
	if first > 0 {
		row = mark("‹") + " " + row
	}
	if last < len(tabs)-1 {
		row += " " + mark("›")
	}
	return ansi.Truncate(row, width, "")
}
