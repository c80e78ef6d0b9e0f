package servers

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// The server editor's fields, in tab order.
const (
	fieldName = iota
	fieldURL
	fieldHeader
	fieldSecret
	fieldCount
)

// Secret placeholders. The stored secret is never read back: the field
// only says whether there is one and what saving will do with it.
const (
	secretNone    = "optional: the header's value"
	SecretStored  = "stored — leave empty to keep"
	secretRemoved = "will be removed on save"
)

// Editor adds or edits a server (SPEC B1, B2, L2), on top of the
// server list. Enter saves and closes; ctrl+t saves and then tests, which
// needs a name (SPEC B2). Neither activates the server. A failed save shows
// its one sentence under the form and keeps every field as typed.
//
// The secret is masked as it is typed and never shown back: editing a
// server that has one shows an empty field that says so. Typing replaces
// it; ctrl+r removes it on save (and again keeps it).
type Editor struct {
	common  kit.Common
	keys    EditorKeyMap
	report  ReportKeyMap
	servers Backend
	inputs  []textinput.Model
	focus   int

	id          string // "" until the server is saved
	hasSecret   bool
	clearSecret bool
	saving      bool
	err         string
}

// newEditor returns an editor for v; the zero ServerView adds a new
// server.
func newEditor(c kit.Common, keys KeyMap, s Backend, v settings.ServerView) Editor {
	st := c.Styles.Modal
	e := Editor{
		common:    c,
		keys:      keys.Editor,
		report:    keys.Report,
		servers:   s,
		id:        v.ID,
		hasSecret: v.HasSecret,
		inputs:    make([]textinput.Model, fieldCount),
	}
	values := [fieldCount]string{v.Name, v.URL, v.HeaderName, ""}
	placeholders := [fieldCount]string{"e.g. files", "https://host/mcp", "optional, e.g. Authorization", secretNone}
	for i := range e.inputs {
		e.inputs[i] = kit.FieldInput(st, values[i], placeholders[i], 2048)
	}
	secret := &e.inputs[fieldSecret]
	secret.EchoMode = textinput.EchoPassword
	secret.EchoCharacter = '•'
	e.inputs[fieldName].Focus()
	e.syncSecret()
	e.syncKeys()
	return e
}

// Init implements Modal.
func (e Editor) Init() tea.Cmd { return textinput.Blink }

// KeyGrace implements Modal: the editor opens on the person's own key.
func (e Editor) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (e Editor) ShortHelp() []key.Binding {
	k := e.keys
	return []key.Binding{k.Next, k.Save, k.Test, k.ClearSecret, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (e Editor) FullHelp() [][]key.Binding {
	k := e.keys
	return [][]key.Binding{{k.Next, k.Prev}, {k.Save, k.Test, k.ClearSecret, k.Cancel}}
}

// boxWidth is the width of the editor's box.
func (e Editor) boxWidth() int { return min(e.common.Width-4, 72) }

// labelWidth is the width of the label column, cursor included.
const labelWidth = 16

// SetSize implements Modal.
func (e Editor) SetSize(width, height int) kit.Modal {
	e.common = e.common.Sized(width, height)
	inputs := append([]textinput.Model(nil), e.inputs...)
	for i := range inputs {
		// One cell for the space after the label, one for the cursor.
		inputs[i].Width = kit.InnerWidth(e.common.Styles.Modal, e.boxWidth()) - labelWidth - 2
	}
	e.inputs = inputs
	return e
}

// input is what the form submits. A typed secret replaces the stored one;
// an empty field keeps it, unless the person asked to remove it.
func (e Editor) input() Input {
	in := Input{
		ID:         e.id,
		Name:       strings.TrimSpace(e.inputs[fieldName].Value()),
		URL:        strings.TrimSpace(e.inputs[fieldURL].Value()),
		HeaderName: strings.TrimSpace(e.inputs[fieldHeader].Value()),
	}
	switch secret := e.inputs[fieldSecret].Value(); {
	case secret != "":
		in.Secret = &secret
	case e.clearSecret:
		none := ""
		in.Secret = &none
	}
	return in
}

// Update implements Modal.
func (e Editor) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	e, action, cmd := e.handle(msg)
	e.syncKeys()
	return e, action, cmd
}

func (e Editor) handle(msg tea.Msg) (Editor, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case SavedMsg:
		if !e.saving {
			return e, nil, nil
		}
		return e.saved(msg)
	case tea.KeyMsg:
		k := e.keys
		switch {
		case key.Matches(msg, k.Cancel):
			return e, kit.CloseModal{}, nil
		case e.saving:
			return e, nil, nil
		case key.Matches(msg, k.Next):
			return e.moveFocus(1)
		case key.Matches(msg, k.Prev):
			return e.moveFocus(-1)
		case key.Matches(msg, k.Save):
			e.saving, e.err = true, ""
			return e, nil, saveServer(e.servers, e.input(), false)
		case key.Matches(msg, k.Test):
			e.saving, e.err = true, ""
			return e, nil, saveServer(e.servers, e.input(), true)
		case key.Matches(msg, k.ClearSecret):
			e.clearSecret = !e.clearSecret
			e.inputs = e.withInput(fieldSecret, func(in *textinput.Model) { in.Reset() })
			e.syncSecret()
			return e, nil, nil
		}
	}
	var cmd tea.Cmd
	e.inputs = e.withInput(e.focus, func(in *textinput.Model) { *in, cmd = in.Update(msg) })
	if e.focus == fieldSecret && e.inputs[fieldSecret].Value() != "" && e.clearSecret {
		e.clearSecret = false // typing a new secret replaces it instead
		e.syncSecret()
	}
	return e, nil, cmd
}

// saved applies the answer of SaveServer: an error stays under the form
// with every field kept; success closes the editor, or opens the test
// report when the person asked to test.
func (e Editor) saved(msg SavedMsg) (Editor, kit.Action, tea.Cmd) {
	e.saving = false
	if msg.err != nil {
		e.err = kit.Sentence(msg.err)
		return e, nil, nil
	}
	// The server exists now: further saves edit it, and the secret field
	// forgets what was typed.
	e.id = msg.view.ID
	e.hasSecret = msg.view.HasSecret
	e.clearSecret = false
	e.inputs = e.withInput(fieldSecret, func(in *textinput.Model) { in.Reset() })
	e.syncSecret()
	if msg.test {
		return e, kit.OpenModal{Modal: newReport(e.common, e.report, e.servers, msg.view)}, nil
	}
	return e, kit.CloseModal{}, nil
}

// moveFocus moves the cursor d fields on, wrapping around.
func (e Editor) moveFocus(d int) (Editor, kit.Action, tea.Cmd) {
	next := (e.focus + d + fieldCount) % fieldCount
	e.inputs = e.withInput(e.focus, func(in *textinput.Model) { in.Blur() })
	var cmd tea.Cmd
	e.inputs = e.withInput(next, func(in *textinput.Model) { cmd = in.Focus() })
	e.focus = next
	return e, nil, cmd
}

// withInput returns a copy of the inputs with f applied to input i, so an
// earlier editor value keeps its own.
func (e Editor) withInput(i int, f func(*textinput.Model)) []textinput.Model {
	inputs := append([]textinput.Model(nil), e.inputs...)
	f(&inputs[i])
	return inputs
}

// syncSecret sets the secret field's placeholder from the stored state.
func (e *Editor) syncSecret() {
	p := secretNone
	switch {
	case e.clearSecret:
		p = secretRemoved
	case e.hasSecret:
		p = SecretStored
	}
	e.inputs = e.withInput(fieldSecret, func(in *textinput.Model) { in.Placeholder = p })
}

// syncKeys enables the bindings that act now. Test needs a name (SPEC B2).
func (e *Editor) syncKeys() {
	k := &e.keys
	idle := !e.saving
	k.Next.SetEnabled(idle)
	k.Prev.SetEnabled(idle)
	k.Save.SetEnabled(idle)
	k.Test.SetEnabled(idle && strings.TrimSpace(e.inputs[fieldName].Value()) != "")
	k.ClearSecret.SetEnabled(idle && e.hasSecret)
	if e.clearSecret {
		k.ClearSecret.SetHelp(k.ClearSecret.Help().Key, "keep secret")
	} else {
		k.ClearSecret.SetHelp(k.ClearSecret.Help().Key, "remove secret")
	}
}

// editorNoteLines is the most lines the editor's note (or error) takes.
const editorNoteLines = 3

// View implements Modal.
func (e Editor) View() string {
	st := e.common.Styles.Modal
	inner := kit.InnerWidth(st, e.boxWidth())
	title := "Add an MCP server"
	if e.id != "" {
		title = "Edit " + safetext.Line(e.inputs[fieldName].Value(), inner-5)
	}
	// In a small window (SPEC L6; issue 18 item 21) the blank lines go
	// first, then lines of the note, so the frame fits the area whole.
	room := e.common.Height - st.Frame.GetVerticalFrameSize() - 1 - fieldCount
	gap := room >= 2+editorNoteLines
	lines := []string{st.Title.Render(title)}
	if gap {
		lines = append(lines, "")
		room -= 2
	}
	fieldLabels := [fieldCount]string{"Name", "Endpoint URL", "Header name", "Secret"}
	for i, in := range e.inputs {
		label := "  " + kit.Pad(fieldLabels[i], labelWidth-2)
		if i == e.focus {
			label = st.FocusedLabel.Render("› " + kit.Pad(fieldLabels[i], labelWidth-2))
		} else {
			label = st.Label.Render(label)
		}
		lines = append(lines, label+" "+in.View())
	}
	if gap {
		lines = append(lines, "")
	}
	room = max(room, 1)
	switch {
	case e.saving:
		lines = append(lines, st.Detail.Render("Saving…"))
	case e.err != "":
		lines = append(lines, kit.WrapLines(st.Error, "✗ "+e.err, inner, min(6, room))...)
	default:
		lines = append(lines, kit.WrapLines(st.Detail, "HTTPS, or plain HTTP on loopback. The secret goes to the "+
			"OS keyring and is never shown. Saving does not activate.", inner, min(editorNoteLines, room))...)
	}
	return kit.ModalBox(st, inner, 0, lines)
}

// Keys returns the editor's bindings as they stand, each enabled or not by
// state.
func (e Editor) Keys() EditorKeyMap { return e.keys }

// Value is what field i (0 name, 1 URL, 2 header name, 3 secret) holds now.
func (e Editor) Value(i int) string { return e.inputs[i].Value() }

// Size is the area the root last gave the editor.
func (e Editor) Size() (width, height int) { return e.common.Width, e.common.Height }
