package convlist

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
)

// Reopen is the pane's action for enter: the root makes conversation ID
// the current one and loads its transcript.
type Reopen struct {
	ID    string
	Title string
}

// IsAction implements kit.Action.
func (Reopen) IsAction() {}

// Model is the conversation list pane, a kit.Modal.
type Model struct {
	common  kit.Common
	keys    KeyMap
	confirm kit.ConfirmKeyMap
	store   Store
	// busy is true while a reply streams: enter then does not reopen.
	busy bool

	kit.Loads
	all    []Summary
	hay    []string                // each row's title and model, lower case, for the filter
	rows   kit.ListCursor[Summary] // all, filtered
	filter textinput.Model
}

// Options are what New needs besides the shared context.
type Options struct {
	Keys    KeyMap
	Confirm kit.ConfirmKeyMap
	// Busy is true while a run is in flight: reopening another
	// conversation waits until it ends.
	Busy bool
}

// New returns the pane over s; Init loads the list (load 1).
func New(c kit.Common, s Store, opts Options) Model {
	f := kit.FieldInput(c.Styles.Modal, "", "type to filter", 200)
	f.Focus()
	m := Model{common: c, keys: opts.Keys, confirm: opts.Confirm, store: s, busy: opts.Busy,
		Loads: kit.Loads{Seq: 1, Loading: s != nil}, filter: f}
	m.syncKeys()
	return m
}

// Init implements kit.Modal.
func (m Model) Init() tea.Cmd {
	if m.store == nil {
		return nil
	}
	return tea.Batch(list(m.store, m.Seq), textinput.Blink)
}

// KeyGrace implements kit.Modal: the pane opens on the person's own key,
// and nothing in it grants anything.
func (m Model) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Up, k.Open, k.Delete, k.Close}
}

// FullHelp implements help.KeyMap.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{{k.Up, k.Down, k.Open}, {k.Delete, k.Close}}
}

// SetSize implements kit.Modal.
func (m Model) SetSize(width, height int) kit.Modal {
	m.common = m.common.Sized(width, height)
	return m
}

// Update implements kit.Modal.
func (m Model) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	m, action, cmd := m.handle(msg)
	m.syncKeys()
	return m, action, cmd
}

func (m Model) handle(msg tea.Msg) (Model, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case ListMsg:
		if m.Settle(msg.seq, msg.err) {
			m.all = msg.rows
			m.hay = make([]string, len(m.all))
			for i, r := range m.all {
				m.hay[i] = strings.ToLower(r.Title + " " + r.Model)
			}
			m.refilter()
		}
		return m, nil, nil
	case DeletedMsg:
		m.Report(msg.err, "Deleted “"+safetext.Line(msg.title, 40)+"”.")
		if msg.err != nil {
			return m, nil, nil
		}
		return m, nil, list(m.store, m.Begin())
	case tea.KeyMsg:
		return m.key(msg)
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	return m, nil, cmd
}

func (m Model) key(msg tea.KeyMsg) (Model, kit.Action, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Close):
		return m, kit.CloseModal{}, nil
	case key.Matches(msg, k.Up):
		m.rows.Up()
		return m, nil, nil
	case key.Matches(msg, k.Down):
		m.rows.Down()
		return m, nil, nil
	case key.Matches(msg, k.Open):
		return m.open()
	case key.Matches(msg, k.Delete):
		return m.askDelete()
	}
	before := m.filter.Value()
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	if m.filter.Value() != before {
		m.refilter()
	}
	return m, nil, cmd
}

// open reopens the conversation under the cursor; the one on screen just
// closes the pane.
func (m Model) open() (Model, kit.Action, tea.Cmd) {
	r, ok := m.rows.Selected()
	switch {
	case !ok:
		return m, nil, nil
	case r.Current:
		return m, kit.CloseModal{}, nil
	case m.busy:
		m.Report(nil, "A reply is still coming; wait for it or press esc in the chat first, then reopen this conversation.")
		return m, nil, nil
	}
	return m, Reopen{ID: r.ID, Title: r.Title}, nil
}

// askDelete asks before deleting the conversation under the cursor.
func (m Model) askDelete() (Model, kit.Action, tea.Cmd) {
	r, ok := m.rows.Selected()
	if !ok {
		return m, nil, nil
	}
	if r.Current {
		m.Report(nil, "This is the conversation on screen; open another or start a new one first, then delete it.")
		return m, nil, nil
	}
	body := fmt.Sprintf("“%s” and its %s will be gone; run history keeps its own record of the runs.",
		title(r, 60), kit.Plural(r.Messages, "message"))
	c := kit.NewConfirm(m.common, m.confirm, "Delete this conversation?", body, "Delete", remove(m.store, r.ID, r.Title))
	return m, kit.OpenModal{Modal: c}, nil
}

// refilter applies the filter to every row, keeping the cursor on the
// same conversation when it is still listed.
func (m *Model) refilter() {
	sel, had := m.rows.Selected()
	words := strings.Fields(strings.ToLower(m.filter.Value()))
	rows := make([]Summary, 0, len(m.all))
	for i, r := range m.all {
		if matches(m.hay[i], words) {
			rows = append(rows, r)
		}
	}
	m.rows.Items, m.rows.Cursor = rows, 0
	if had {
		for i, r := range rows {
			if r.ID == sel.ID {
				m.rows.Cursor = i
			}
		}
	}
}

// matches reports whether every word is in hay, a row's title and model
// in lower case.
func matches(hay string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

func (m *Model) syncKeys() {
	k := &m.keys
	n := len(m.rows.Items)
	k.Up.SetEnabled(n > 1)
	k.Down.SetEnabled(n > 1)
	k.Open.SetEnabled(n > 0)
	k.Delete.SetEnabled(n > 0 && m.store != nil)
}

// Rows returns the rows shown, filtered, newest first.
func (m Model) Rows() []Summary { return append([]Summary(nil), m.rows.Items...) }

// Filter is the filter as typed.
func (m Model) Filter() string { return m.filter.Value() }

// Keys returns the bindings as they stand, each enabled or not by state.
func (m Model) Keys() KeyMap { return m.keys }

// title is r's title for a row: neutralised, on one line, at most width
// cells; a conversation without one is named by what it is.
func title(r Summary, width int) string {
	t := safetext.Line(r.Title, width)
	if t != "" {
		return t
	}
	if r.Messages == 0 {
		return "(new conversation)"
	}
	return "(no message of yours)"
}
