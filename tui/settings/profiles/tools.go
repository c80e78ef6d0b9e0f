package profiles

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings/tools"
)

// ToolsPane is the per-profile tool selection pane (SPEC H2, L2): the
// Tools page of Settings over a profile's allowlist instead of the
// conversation's selection — tools grouped by server with their status and
// token cost, a switch per tool, filter as you type. A tool that is not
// selected is not available to the profile's runs: select one tool of
// three and the model sees that one only. Each switch is a new revision of
// the profile, made by Profiles.SetProfileTool; the pane moves a switch
// only once that has answered.
type ToolsPane struct {
	common kit.Common
	name   string
	src    tools.Source
	page   tools.Page
}

// profileToolSource is the allowlist of the profile name through p.
func profileToolSource(p Backend, name string) tools.Source {
	src := tools.Source{
		Scope:   profileScope(name),
		Missing: "Agent Profiles are not available here.",
		On:      "selected for this profile",
		Off:     "not available to this profile",
	}
	if p != nil {
		src.Load = func(seq int) tea.Cmd { return loadProfileTools(p, name, seq) }
		src.Set = func(id string, on bool) tea.Cmd { return setProfileTool(p, name, id, on) }
	}
	return src
}

// NewTools returns the pane for the profile name; Init loads it.
func NewTools(c kit.Common, keys KeyMap, p Backend, name string) ToolsPane {
	src := profileToolSource(p, name)
	page := tools.NewShown(c, keys.Tools, src) // Init starts load 1
	return ToolsPane{common: c, name: name, src: src, page: page}
}

// Init implements Modal: it loads the tools (load number 1).
func (t ToolsPane) Init() tea.Cmd {
	if t.src.Load == nil {
		return nil
	}
	return t.src.Load(1)
}

// KeyGrace implements Modal: it opens on the person's own key.
func (t ToolsPane) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (t ToolsPane) ShortHelp() []key.Binding { return t.page.ShortHelp() }

// FullHelp implements help.KeyMap.
func (t ToolsPane) FullHelp() [][]key.Binding { return t.page.FullHelp() }

// boxWidth is the width of the pane's box.
func (t ToolsPane) boxWidth() int { return min(t.common.Width-4, 100) }

// SetSize implements Modal.
func (t ToolsPane) SetSize(width, height int) kit.Modal {
	t.common = t.common.Sized(width, height)
	st := t.common.Styles.Modal
	inner := kit.InnerWidth(st, t.boxWidth())
	t.page = t.page.SetSize(inner, max(height-st.Frame.GetVerticalFrameSize()-2, 3)).(tools.Page)
	return t
}

// Update implements Modal.
func (t ToolsPane) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	page, action, cmd := t.page.Update(msg)
	t.page = page.(tools.Page)
	return t, action, cmd
}

// View implements Modal.
func (t ToolsPane) View() string {
	st := t.common.Styles.Modal
	inner := kit.InnerWidth(st, t.boxWidth())
	lines := []string{
		st.Title.Render("Tools of profile " + safetext.Line(t.name, inner-17)),
		st.Detail.Render(safetext.Line("Its runs may use only the selected tools; each change is a revision.", inner)),
	}
	lines = append(lines, strings.Split(t.page.View(), "\n")...)
	return kit.ModalBox(st, inner, t.common.Height-st.Frame.GetVerticalFrameSize(), lines)
}

// Page returns the tool selection list the pane shows.
func (t ToolsPane) Page() tools.Page { return t.page }
