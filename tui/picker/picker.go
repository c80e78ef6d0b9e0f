package picker

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/kit"
)

// ModelsMsg carries the result of listing the server's models. The root
// hands it to the open picker; until one arrives the picker says it is
// loading, and a failure is one sentence in the pane.
type ModelsMsg struct {
	Models []agent.ModelInfo
	Err    error
}

// Model is the model picker modal: the models the server offers, filtered
// as the person types. Enter selects (kit.SelectModel), Esc closes.
type Model struct {
	common  kit.Common
	keys    KeyMap
	filter  textinput.Model
	grace   time.Duration
	current string

	models  []agent.ModelInfo
	visible []int // indexes into models that match the filter
	cursor  int   // index into visible
	loading bool
	err     string
}

// New returns a picker that marks current as the model in use and shows
// cached models (possibly none) while a fresh list loads; grace is its
// settle period (SPEC D7).
func New(c kit.Common, keys KeyMap, current string, cached []agent.ModelInfo, grace time.Duration) Model {
	st := c.Styles.Modal
	f := textinput.New()
	f.Prompt = "› "
	f.Placeholder = "type to filter"
	f.PromptStyle = st.Prompt
	f.TextStyle = st.Item
	f.PlaceholderStyle = st.Detail
	f.CompletionStyle = st.Detail
	f.Focus()
	p := Model{
		common:  c,
		keys:    keys,
		filter:  f,
		grace:   grace,
		current: current,
		models:  cached,
		loading: true,
	}
	p.refilter()
	return p
}

// Init implements Modal.
func (p Model) Init() tea.Cmd { return textinput.Blink }

// KeyGrace implements Modal.
func (p Model) KeyGrace() time.Duration { return p.grace }

// ShortHelp implements help.KeyMap.
func (p Model) ShortHelp() []key.Binding { return p.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (p Model) FullHelp() [][]key.Binding { return p.keys.FullHelp() }

// SetSize implements Modal.
func (p Model) SetSize(width, height int) kit.Modal {
	p.common = p.common.Sized(width, height)
	p.filter.Width = p.boxWidth() - 8
	return p
}

// Update implements Modal.
func (p Model) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case ModelsMsg:
		p.loading = false
		p.err = ""
		if msg.Err != nil {
			p.err = kit.Sentence(msg.Err)
		} else {
			p.models = msg.Models
		}
		p.refilter()
		return p, nil, nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.keys.Close):
			return p, kit.CloseModal{}, nil
		case key.Matches(msg, p.keys.Select):
			if len(p.visible) == 0 {
				return p, nil, nil
			}
			return p, kit.SelectModel{Model: p.models[p.visible[p.cursor]]}, nil
		case key.Matches(msg, p.keys.Up):
			p.cursor = max(p.cursor-1, 0)
			return p, nil, nil
		case key.Matches(msg, p.keys.Down):
			p.cursor = min(p.cursor+1, max(len(p.visible)-1, 0))
			return p, nil, nil
		}
	}
	before := p.filter.Value()
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	if p.filter.Value() != before {
		p.refilter()
	}
	return p, nil, cmd
}

// refilter recomputes the visible models and keeps the cursor on the model
// in use when it is visible.
func (p *Model) refilter() {
	q := strings.ToLower(strings.TrimSpace(p.filter.Value()))
	p.visible = make([]int, 0, len(p.models))
	p.cursor = 0
	for i, m := range p.models {
		if q != "" && !strings.Contains(strings.ToLower(m.ID), q) {
			continue
		}
		if m.ID == p.current && q == "" {
			p.cursor = len(p.visible)
		}
		p.visible = append(p.visible, i)
	}
}

func (p Model) boxWidth() int { return min(64, p.common.Width-4) }

// listRows is how many models fit in the pane.
func (p Model) listRows() int { return max(p.common.Height-8, 1) }

// View implements Modal.
func (p Model) View() string {
	st := p.common.Styles.Modal
	w := p.boxWidth() - st.Frame.GetHorizontalFrameSize()
	lines := []string{st.Title.Render("Select a model"), p.filter.View(), ""}

	rows := p.listRows()
	first := max(0, min(p.cursor-rows/2, len(p.visible)-rows))
	for n := first; n < len(p.visible) && n < first+rows; n++ {
		lines = append(lines, p.row(p.models[p.visible[n]], n == p.cursor, w))
	}
	var foot string
	switch {
	case p.err != "":
		// The reason whole, wrapped: a URL cut mid-way says nothing (issue
		// 28 item 11).
		foot = strings.Join(kit.WrapLines(st.Error, safetext.Line(p.err, 0), w, 4), "\n")
	case p.loading && len(p.models) == 0:
		foot = st.Detail.Render("Loading models…")
	case len(p.models) == 0:
		foot = st.Detail.Render("The server offers no models.")
	case len(p.visible) == 0:
		foot = st.Detail.Render("No model matches the filter.")
	default:
		foot = st.Detail.Render(fmt.Sprintf("%d of %d models", len(p.visible), len(p.models)))
		if p.loading {
			foot += st.Detail.Render(" · refreshing…")
		}
	}
	lines = append(lines, "", foot)
	return st.Frame.Width(w + st.Frame.GetHorizontalPadding()).Render(strings.Join(lines, "\n"))
}

// Selected is the ID of the model under the cursor, "" when none shows.
func (p Model) Selected() string {
	if len(p.visible) == 0 {
		return ""
	}
	return p.models[p.visible[p.cursor]].ID
}

// Filter is the filter as typed.
func (p Model) Filter() string { return p.filter.Value() }

// Shown is how many models match the filter.
func (p Model) Shown() int { return len(p.visible) }

// Size is the size the picker was last given.
func (p Model) Size() (width, height int) { return p.common.Width, p.common.Height }

// row renders one model: the cursor, a marker for the model in use, its
// ID, and its context window with where that figure came from.
func (p Model) row(m agent.ModelInfo, selected bool, w int) string {
	st := p.common.Styles.Modal
	cursor, inUse := " ", " "
	if selected {
		cursor = "›"
	}
	if m.ID == p.current {
		inUse = "•"
	}
	mark := cursor + " " + inUse + " " // "› • model": cursor and marker apart (issue 28 item 10)
	detail := ""
	if m.ContextWindow > 0 {
		detail = kit.Tokens(m.ContextWindow) + " ctx"
		if m.WindowSource != "" {
			detail += " · " + m.WindowSource
		}
	}
	detail = safetext.Line(detail, w/2)
	const markWidth = 4
	id := safetext.Line(m.ID, w-markWidth-ansi.StringWidth(detail)-1)
	gap := max(w-markWidth-ansi.StringWidth(id)-ansi.StringWidth(detail), 1)
	if selected {
		return st.Selected.Render(mark + id + strings.Repeat(" ", gap) + detail)
	}
	return st.Item.Render(mark+id) + strings.Repeat(" ", gap) + st.Detail.Render(detail)
}

// KeyMap is the model picker's bindings. Typing filters the list.
type KeyMap struct {
	Up     key.Binding
	Down   key.Binding
	Select key.Binding
	Close  key.Binding
}

// DefaultKeyMap returns the model picker's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Select: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "select")),
		Close:  key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Select, k.Close}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.ShortHelp()}
}
