package tui

import (
	"strings"
	"time"

	"vouch/tui/kit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// settingsPage is one page of Settings: a tab of its section. A page is a
// small Modal of its own, minus the stack: it gets keys only while shown,
// every other message always (each ignores what is not its own), and it
// asks the root for things through the same Actions a Modal returns, for
// instance OpenModal for the server editor.
//
// Later pages of Tools & Workflows (skills, profiles, the workflows switch;
// SPEC G, H, L2) drop in by implementing this interface and joining the
// slice built in newSettings.
type settingsPage interface {
	help.KeyMap
	// title names the page on its tab.
	title() string
	// update handles a message and returns the page, an Action for the
	// root (nil for none) and a Cmd.
	update(msg tea.Msg) (settingsPage, kit.Action, tea.Cmd)
	view() string
	// setSize gives the page the cells it may use below the tabs.
	setSize(width, height int) settingsPage
	// focus shows the page and returns the Cmd that loads or refreshes it;
	// blur hides it.
	focus() (settingsPage, tea.Cmd)
	blur() settingsPage
	Focused() bool
}

// settings is the Settings modal (SPEC L2): a section title, a row of tabs
// and the page shown. Tab and shift+tab move between pages; every other key
// goes to the page shown. It fills the area above the input.
type settings struct {
	common  Common
	keys    SettingsKeyMap
	section string
	pages   []settingsPage
	active  int
}

// newSettings returns Settings on its first page, Tools & Workflows › MCP
// Servers, backed by s (nil: the pages say servers are not available); the
// Policy page is backed by pe (nil: it says policy is not available), the
// Skills page by sc (nil: it says skills are not available).
func newSettings(c Common, s Servers, pe PolicyEditor, sc SkillCatalog) settings {
	st := settings{
		common:  c,
		keys:    c.Keys.Settings,
		section: "Tools & Workflows",
		pages:   []settingsPage{newServerList(c, s), newToolsPage(c, s), newPolicyPage(c, pe), newSkillsPage(c, sc)},
	}
	st.syncKeys()
	return st
}

// Init implements Modal: it shows the first page, which starts loading.
func (s settings) Init() tea.Cmd {
	var cmd tea.Cmd
	s.pages[s.active], cmd = s.pages[s.active].focus()
	return cmd
}

// KeyGrace implements Modal. Settings opens only on the person's own key,
// so no grace period is needed.
func (s settings) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap: the page's bindings, then the page
// switch.
func (s settings) ShortHelp() []key.Binding {
	return append(s.pages[s.active].ShortHelp(), s.keys.NextPage)
}

// FullHelp implements help.KeyMap.
func (s settings) FullHelp() [][]key.Binding {
	return append(s.pages[s.active].FullHelp(), []key.Binding{s.keys.NextPage, s.keys.PrevPage})
}

// SetSize implements Modal.
func (s settings) SetSize(width, height int) kit.Modal {
	s.common = s.common.sized(width, height)
	w, h := s.pageSize()
	pages := make([]settingsPage, len(s.pages))
	for i, p := range s.pages {
		pages[i] = p.setSize(w, h)
	}
	s.pages = pages
	return s
}

// headerLines is the section title, the tabs and a blank line.
const headerLines = 3

// boxWidth is the width of the Settings box.
func (s settings) boxWidth() int { return min(s.common.Width-4, 100) }

// pageSize is the cells a page may use.
func (s settings) pageSize() (int, int) {
	st := s.common.Styles.Modal
	return kit.InnerWidth(st, s.boxWidth()), max(s.common.Height-st.Frame.GetVerticalFrameSize()-headerLines, 3)
}

// Update implements Modal.
func (s settings) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	if msg, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(msg, s.keys.NextPage):
			return s.show((s.active + 1) % len(s.pages))
		case key.Matches(msg, s.keys.PrevPage):
			return s.show((s.active + len(s.pages) - 1) % len(s.pages))
		}
		page, action, cmd := s.pages[s.active].update(msg)
		s.pages = s.withPage(s.active, page)
		s.syncKeys()
		return s, action, cmd
	}
	// Results and ticks go to every page; each keeps only its own.
	var cmds []tea.Cmd
	var action kit.Action
	for i, p := range s.pages {
		page, a, cmd := p.update(msg)
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
func (s settings) Reveal() (kit.Modal, tea.Cmd) {
	page, cmd := s.pages[s.active].focus()
	s.pages = s.withPage(s.active, page)
	return s, cmd
}

// show switches to page i.
func (s settings) show(i int) (kit.Modal, kit.Action, tea.Cmd) {
	if i == s.active {
		return s, nil, nil
	}
	s.pages = s.withPage(s.active, s.pages[s.active].blur())
	s.active = i
	page, cmd := s.pages[i].focus()
	s.pages = s.withPage(i, page)
	s.syncKeys()
	return s, nil, cmd
}

// withPage returns the pages with page i replaced, copying the slice so an
// earlier Settings value keeps its own.
func (s settings) withPage(i int, p settingsPage) []settingsPage {
	pages := append([]settingsPage(nil), s.pages...)
	pages[i] = p
	return pages
}

// syncKeys names the page the page switch goes to.
func (s *settings) syncKeys() {
	many := len(s.pages) > 1
	s.keys.NextPage.SetEnabled(many)
	s.keys.PrevPage.SetEnabled(many)
	if many {
		next := s.pages[(s.active+1)%len(s.pages)].title()
		s.keys.NextPage.SetHelp("tab", strings.ToLower(next))
	}
}

// View implements Modal.
func (s settings) View() string {
	st := s.common.Styles.Modal
	inner, _ := s.pageSize()
	tabs := make([]string, len(s.pages))
	for i, p := range s.pages {
		if i == s.active {
			tabs[i] = st.ActiveTab.Render("[" + p.title() + "]")
		} else {
			tabs[i] = st.Tab.Render(" " + p.title() + " ")
		}
	}
	lines := []string{
		st.Title.Render("Settings › " + s.section),
		strings.Join(tabs, " "),
		"",
	}
	lines = append(lines, strings.Split(s.pages[s.active].view(), "\n")...)
	return kit.ModalBox(st, inner, s.common.Height-st.Frame.GetVerticalFrameSize(), lines)
}
