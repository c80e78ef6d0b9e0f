package approval

import (
	"time"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tool"
	"vouch/tui/kit"
)

// ElicitRequest is a question a tool call of the chat's run puts to the
// person (SPEC B12), with the channel its answer goes to — or, with
// Background set, a question of a background run opened from the approvals
// inbox: its answer goes back through the Inbox (Reply is nil), and its
// ctrl+c goes back to the inbox instead of stopping anything.
type ElicitRequest struct {
	Run        int
	Question   tool.Question
	Reply      chan<- tool.Answer
	Background *Background
}

// ElicitAction is what the elicitation pane asks of the root: send
// Answer for the question of Correlation (and close the pane), copy or
// open the URL, or stop the whole run.
type ElicitAction struct {
	Correlation string
	Answer      tool.Answer
	Copy, Open  string // the URL to copy or to open; no answer then
	Stop        bool
}

// IsAction implements kit.Action.
func (ElicitAction) IsAction() {}

// SecretWarning is what the pane says next to a field that asks for a
// password, token, secret or key.
const SecretWarning = "servers must not ask for secrets in a form"

// ElicitPane is the pane in which a server asks the person (SPEC B12): a
// form of the server's fields, or a URL to visit. It appears on its own,
// like an approval, and is under the same keyboard rule (SPEC D7): it is a
// kit.Asker, settles for the root's settle period, says so instead of its
// keys, and, once the person has the keyboard there, every key but the
// pane's chords goes into the focused text field — a paste too, which
// never sends. Only ctrl+s sends the form; esc cancels; the Decline button
// declines. The first field has the focus, unless a field asks for a
// secret: then Decline has it. A URL is shown whole and escaped with its
// host emphasised; vouch never opens it by itself (o opens it with
// VOUCH_BROWSER; c copies it); enter says the person is done.
type ElicitPane struct {
	common kit.Common
	keys   ElicitKeyMap
	grace  time.Duration
	req    ElicitRequest
	fields []elicitField
	focus  int // a field's index, or len(fields): the Decline button
	notice string
	// settling is true while the root holds the pane's keys back, and
	// settle is what it says instead.
	settling bool
	settle   string
}

// elicitField is one field and what the person entered in it.
type elicitField struct {
	f      tool.Field
	in     textinput.Model // text, email, URI, date, integer and number
	on     bool            // boolean
	cursor int             // enum and multi-select: the choice under the cursor
	pick   int             // enum: the chosen option, -1 for none
	chosen []bool          // multi-select
	err    string          // what is wrong, next to the field
}

// fieldLimit bounds what the person types in one field, in characters.
const fieldLimit = 2000

// NewElicit returns the pane for req; grace is the settle period.
func NewElicit(c kit.Common, keys ElicitKeyMap, req ElicitRequest, grace time.Duration) ElicitPane {
	p := ElicitPane{common: c, keys: keys, grace: grace, req: req}
	if req.Background != nil {
		p.keys.Stop.SetHelp(p.keys.Stop.Help().Key, "back to inbox")
	}
	q := req.Question
	if q.IsURL() {
		p.keys.urlMode()
		return p
	}
	st := c.Styles.Modal
	for _, f := range q.Fields {
		ef := elicitField{f: f, pick: -1}
		switch f.Kind {
		case tool.KindBoolean:
			ef.on, _ = f.Default.(bool)
		case tool.KindEnum:
			for i, o := range f.Options {
				if o.Value == f.DefaultText() {
					ef.pick, ef.cursor = i, i
				}
			}
		case tool.KindMulti:
			ef.chosen = make([]bool, len(f.Options))
			for _, d := range f.DefaultItems() {
				for i, o := range f.Options {
					if o.Value == d {
						ef.chosen[i] = true
					}
				}
			}
		default:
			in := textinput.New()
			in.Prompt = "› "
			in.CharLimit = fieldLimit
			in.PromptStyle, in.TextStyle, in.PlaceholderStyle = st.Prompt, st.Item, st.Detail
			in.SetValue(f.DefaultText()) // SEP-1034: the default, filled in
			if f.Secret {
				in.EchoMode = textinput.EchoPassword
			}
			ef.in = in
		}
		p.fields = append(p.fields, ef)
	}
	if q.AsksSecret() || len(p.fields) == 0 {
		p.focus = len(p.fields) // Decline
	}
	p.syncFocus()
	return p
}

// Init implements kit.Modal.
func (p ElicitPane) Init() tea.Cmd { return nil }

// KeyGrace implements kit.Modal: the root's settle period (SPEC D7).
func (p ElicitPane) KeyGrace() time.Duration { return p.grace }

// AsksPerson implements kit.Asker.
func (ElicitPane) AsksPerson() {}

// WithSettling implements kit.SettleShower.
func (p ElicitPane) WithSettling(notice string) kit.Modal {
	p.settling, p.settle = notice != "", notice
	return p
}

// WaitingFor implements kit.Waiter.
func (p ElicitPane) WaitingFor() string {
	return "a question from " + p.serverLine()
}

// ShortHelp implements help.KeyMap.
func (p ElicitPane) ShortHelp() []key.Binding { return p.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (p ElicitPane) FullHelp() [][]key.Binding { return p.keys.FullHelp() }

// SetSize implements kit.Modal.
func (p ElicitPane) SetSize(width, height int) kit.Modal {
	p.common = p.common.Sized(width, height)
	w := max(p.innerWidth()-8, 10) // the indent, the prompt and the cursor
	for i := range p.fields {
		p.fields[i].in.Width = w
	}
	return p
}

// Request is the question the pane shows.
func (p ElicitPane) Request() ElicitRequest { return p.req }

// Focus is the focused field's index, or the number of fields when the
// Decline button has the focus.
func (p ElicitPane) Focus() int { return p.focus }

// Value is what the field of index i holds as typed (text kinds).
func (p ElicitPane) Value(i int) string { return p.fields[i].in.Value() }

// textFocused reports whether a text field has the focus.
func (p ElicitPane) textFocused() bool {
	return p.focus < len(p.fields) && p.fields[p.focus].isText()
}

func (f elicitField) isText() bool {
	switch f.f.Kind {
	case tool.KindBoolean, tool.KindEnum, tool.KindMulti:
		return false
	}
	return true
}

// TakesKey implements kit.KeyTaker (SPEC D7): while a text field has the
// focus every key is the pane's — text goes into the field, a paste too;
// otherwise the keys of its enabled bindings, and never a paste.
func (p ElicitPane) TakesKey(msg tea.KeyMsg) bool {
	if p.textFocused() {
		return true
	}
	if msg.Paste {
		return false
	}
	for _, group := range p.keys.FullHelp() {
		for _, b := range group {
			if b.Enabled() && key.Matches(msg, b) {
				return true
			}
		}
	}
	return false
}

// Update implements kit.Modal.
func (p ElicitPane) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		if p.textFocused() {
			var cmd tea.Cmd
			p.fields[p.focus].in, cmd = p.fields[p.focus].in.Update(msg) // the cursor's blink
			return p, nil, cmd
		}
		return p, nil, nil
	}
	k := p.keys
	corr := p.req.Question.CorrelationID
	switch {
	case key.Matches(km, k.Stop) && p.req.Background != nil:
		return p, kit.CloseModal{}, nil // the question waits on in the inbox
	case key.Matches(km, k.Stop):
		return p, ElicitAction{Correlation: corr, Stop: true}, nil
	case key.Matches(km, k.Cancel):
		return p, ElicitAction{Correlation: corr, Answer: tool.Answer{Action: tool.Cancel}}, nil
	case key.Matches(km, k.Done):
		return p, ElicitAction{Correlation: corr, Answer: tool.Answer{Action: tool.Accept}}, nil
	case key.Matches(km, k.Copy) && !km.Paste:
		return p, ElicitAction{Correlation: corr, Copy: p.req.Question.URL}, nil
	case key.Matches(km, k.Open) && !km.Paste:
		p.notice = "Opening it with VOUCH_BROWSER, if set; vouch fetched nothing."
		return p, ElicitAction{Correlation: corr, Open: p.req.Question.URL}, nil
	case key.Matches(km, k.Send):
		return p.send()
	case key.Matches(km, k.Next):
		return p.move(1), nil, nil
	case key.Matches(km, k.Prev):
		return p.move(-1), nil, nil
	case key.Matches(km, k.Choose):
		if p.focus == len(p.fields) {
			return p, ElicitAction{Correlation: corr, Answer: tool.Answer{Action: tool.Decline}}, nil
		}
		return p.move(1), nil, nil
	}
	if p.focus >= len(p.fields) {
		return p, nil, nil
	}
	if p.textFocused() {
		return p.typeKey(km)
	}
	ef := &p.fields[p.focus]
	switch {
	case key.Matches(km, k.Up):
		ef.cursor = max(ef.cursor-1, 0)
	case key.Matches(km, k.Down):
		ef.cursor = min(ef.cursor+1, max(len(ef.f.Options)-1, 0))
	case key.Matches(km, k.Toggle) && !km.Paste:
		p.fields[p.focus] = ef.toggle()
	}
	return p, nil, nil
}

// typeKey gives a key to the focused text field and validates what it
// holds now (SPEC B12: validated as typed; an empty field is said to be
// required only when the person tries to send).
func (p ElicitPane) typeKey(km tea.KeyMsg) (kit.Modal, kit.Action, tea.Cmd) {
	ef := &p.fields[p.focus]
	if km.Type == tea.KeyRunes {
		km.Runes = flatRunes(km.Runes) // a pasted line break is a space: the form never sends on it
	}
	var cmd tea.Cmd
	ef.in, cmd = ef.in.Update(km)
	ef.err = ""
	if v := ef.in.Value(); v != "" {
		if _, err := ef.f.Parse(v); err != nil {
			ef.err = kit.Sentence(err)
		}
	}
	return p, nil, cmd
}

// flatRunes is pasted text as one line: a line break or tab is a space,
// and what a terminal would not print plainly is dropped (SPEC D3).
func flatRunes(rs []rune) []rune {
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case unicode.IsControl(r) || safetext.Hidden(r):
			continue
		}
		out = append(out, r)
	}
	return out
}

// toggle flips a boolean, picks the choice under the cursor of an enum
// (again: none) or flips it in a multi-select.
func (f elicitField) toggle() elicitField {
	switch f.f.Kind {
	case tool.KindBoolean:
		f.on = !f.on
	case tool.KindEnum:
		if f.pick == f.cursor {
			f.pick = -1
		} else {
			f.pick = f.cursor
		}
	case tool.KindMulti:
		if f.cursor < len(f.chosen) {
			f.chosen[f.cursor] = !f.chosen[f.cursor]
		}
		f.err = ""
		if err := f.f.CheckItems(f.count()); err != nil {
			f.err = kit.Sentence(err)
		}
	}
	return f
}

func (f elicitField) count() int {
	n := 0
	for _, c := range f.chosen {
		if c {
			n++
		}
	}
	return n
}

// move moves the focus by d, through the fields and the Decline button.
func (p ElicitPane) move(d int) ElicitPane {
	n := len(p.fields) + 1
	p.focus = ((p.focus+d)%n + n) % n
	p.syncFocus()
	return p
}

func (p *ElicitPane) syncFocus() {
	for i := range p.fields {
		if i == p.focus && p.fields[i].isText() {
			p.fields[i].in.Focus()
		} else {
			p.fields[i].in.Blur()
		}
	}
	if p.focus == len(p.fields) {
		p.keys.Choose.SetHelp("enter", "decline")
	} else {
		p.keys.Choose.SetHelp("enter", "next field")
	}
}

// send checks every field and, when all are valid, answers accept with
// their values; otherwise it says what is wrong next to each field and
// focuses the first.
func (p ElicitPane) send() (kit.Modal, kit.Action, tea.Cmd) {
	content := map[string]any{}
	first := -1
	for i := range p.fields {
		v, err := p.fields[i].value()
		p.fields[i].err = ""
		if err != nil {
			p.fields[i].err = kit.Sentence(err)
			if first < 0 {
				first = i
			}
			continue
		}
		if v != nil {
			content[p.fields[i].f.Name] = v
		}
	}
	if first >= 0 {
		p.focus = first
		p.syncFocus()
		p.notice = "Not sent: correct the field marked below."
		return p, nil, nil
	}
	return p, ElicitAction{Correlation: p.req.Question.CorrelationID, Answer: tool.Answer{Action: tool.Accept, Content: content}}, nil
}

// value is what the field sends, nil for nothing.
func (f elicitField) value() (any, error) {
	switch f.f.Kind {
	case tool.KindBoolean:
		return f.on, nil
	case tool.KindEnum:
		if f.pick < 0 {
			return f.f.Parse("")
		}
		return f.f.Options[f.pick].Value, nil
	case tool.KindMulti:
		if err := f.f.CheckItems(f.count()); err != nil {
			return nil, err
		}
		if f.count() == 0 {
			return nil, nil
		}
		items := []string{}
		for i, c := range f.chosen {
			if c {
				items = append(items, f.f.Options[i].Value)
			}
		}
		return items, nil
	}
	return f.f.Parse(f.in.Value())
}

// AnswerSentMsg reports that a question's answer was sent (false: its
// channel already held one).
type AnswerSentMsg struct {
	Correlation string
	Sent        bool
}

// SendAnswer answers a question: it sends a on reply, the channel copied
// out of the run's event, which has room for one answer, so the send never
// blocks. The root calls it once, as the pane closes.
func SendAnswer(correlation string, reply chan<- tool.Answer, a tool.Answer) tea.Cmd {
	return func() tea.Msg {
		select {
		case reply <- a:
			return AnswerSentMsg{Correlation: correlation, Sent: true}
		default:
			return AnswerSentMsg{Correlation: correlation}
		}
	}
}
