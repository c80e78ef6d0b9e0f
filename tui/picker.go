package tui

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

// picker is the model picker modal: the models the server offers, filtered
// as the person types. Enter selects, Esc closes. The list arrives through a
// modelsMsg; until then it says it is loading, and a failure is one
// sentence in the pane.
type picker struct {
	common  Common
	keys    PickerKeyMap
	filter  textinput.Model
	grace   time.Duration
	current string

	models  []agent.ModelInfo
	visible []int // indexes into models that match the filter
	cursor  int   // index into visible
	loading bool
	err     string
}

// newPicker returns a picker that marks current as the model in use and
// shows cached models (possibly none) while a fresh list loads.
func newPicker(c Common, current string, cached []agent.ModelInfo, grace time.Duration) picker {
	st := c.Styles.Modal
	f := textinput.New()
	f.Prompt = "› "
	f.Placeholder = "type to filter"
	f.PromptStyle = st.Prompt
	f.TextStyle = st.Item
	f.PlaceholderStyle = st.Detail
	f.CompletionStyle = st.Detail
	f.Focus()
	p := picker{
		common:  c,
		keys:    c.Keys.Picker,
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
func (p picker) Init() tea.Cmd { return textinput.Blink }

// KeyGrace implements Modal.
func (p picker) KeyGrace() time.Duration { return p.grace }

// ShortHelp implements help.KeyMap.
func (p picker) ShortHelp() []key.Binding { return p.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (p picker) FullHelp() [][]key.Binding { return p.keys.FullHelp() }

// SetSize implements Modal.
func (p picker) SetSize(width, height int) kit.Modal {
	p.common = p.common.sized(width, height)
	p.filter.Width = p.boxWidth() - 8
	return p
}

// Update implements Modal.
func (p picker) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case modelsMsg:
		p.loading = false
		p.err = ""
		if msg.err != nil {
			p.err = kit.Sentence(msg.err)
		} else {
			p.models = msg.models
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
func (p *picker) refilter() {
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

func (p picker) boxWidth() int { return min(64, p.common.Width-4) }

// listRows is how many models fit in the pane.
func (p picker) listRows() int { return max(p.common.Height-8, 1) }

// View implements Modal.
func (p picker) View() string {
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
		foot = st.Error.Render(safetext.Line(p.err, w))
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

// row renders one model: the cursor, a marker for the model in use, its
// ID, and its context window with where that figure came from.
func (p picker) row(m agent.ModelInfo, selected bool, w int) string {
	st := p.common.Styles.Modal
	cursor, inUse := " ", " "
	if selected {
		cursor = "›"
	}
	if m.ID == p.current {
		inUse = "•"
	}
	mark := cursor + inUse + " "
	detail := ""
	if m.ContextWindow > 0 {
		detail = kit.Tokens(m.ContextWindow) + " ctx"
		if m.WindowSource != "" {
			detail += " · " + m.WindowSource
		}
	}
	detail = safetext.Line(detail, w/2)
	const markWidth = 3
	id := safetext.Line(m.ID, w-markWidth-ansi.StringWidth(detail)-1)
	gap := max(w-markWidth-ansi.StringWidth(id)-ansi.StringWidth(detail), 1)
	if selected {
		return st.Selected.Render(mark + id + strings.Repeat(" ", gap) + detail)
	}
	return st.Item.Render(mark+id) + strings.Repeat(" ", gap) + st.Detail.Render(detail)
}

// PickerKeyMap is the model picker's bindings. Typing filters the list.
type PickerKeyMap struct {
	Up     key.Binding
	Down   key.Binding
	Select key.Binding
	Close  key.Binding
}

// DefaultPickerKeyMap returns the model picker's default bindings.
func DefaultPickerKeyMap() PickerKeyMap {
	return PickerKeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Select: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "select")),
		Close:  key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp implements help.KeyMap.
func (k PickerKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Select, k.Close}
}

// FullHelp implements help.KeyMap.
func (k PickerKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.ShortHelp()}
}
