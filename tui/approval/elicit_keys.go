package approval

import "github.com/charmbracelet/bubbles/key"

// ElicitKeyMap is the bindings of the pane in which a server asks the
// person (SPEC B12). Only Send sends a form: no key a person types into a
// field, enter included, can. While a text field has the focus every key
// but the chords below is the field's text.
type ElicitKeyMap struct {
	Next   key.Binding // the next field (the Decline button after the last)
	Prev   key.Binding
	Send   key.Binding // send the form (accept)
	Cancel key.Binding // esc: answer cancel
	Toggle key.Binding // space: a boolean, or the choice under the cursor
	Up     key.Binding // the choice above, in an enum or multi-select
	Down   key.Binding
	Choose key.Binding // enter: on Decline declines; in a field, the next field
	Done   key.Binding // URL mode: enter, the person is done (accept)
	Copy   key.Binding // URL mode: copy the URL (OSC 52)
	Open   key.Binding // URL mode: open it with VOUCH_BROWSER
	Stop   key.Binding // ctrl+c: stop the run
}

// DefaultElicitKeyMap returns the pane's default bindings.
func DefaultElicitKeyMap() ElicitKeyMap {
	return ElicitKeyMap{
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
		Send:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Toggle: key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pick")),
		Up:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "choices")),
		Down:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "choices")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "decline")),
		Done:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done"), key.WithDisabled()),
		Copy:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy URL"), key.WithDisabled()),
		Open:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open (VOUCH_BROWSER)"), key.WithDisabled()),
		Stop:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "stop run")),
	}
}

// ShortHelp implements help.KeyMap.
func (k ElicitKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Done, k.Copy, k.Open, k.Next, k.Toggle, k.Cancel, k.Stop}
}

// FullHelp implements help.KeyMap.
func (k ElicitKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Done, k.Copy, k.Open, k.Cancel},
		{k.Next, k.Prev, k.Toggle, k.Up, k.Choose, k.Stop},
	}
}

// urlMode enables the bindings of a URL question and disables the form's.
func (k *ElicitKeyMap) urlMode() {
	for _, b := range []*key.Binding{&k.Next, &k.Prev, &k.Send, &k.Toggle, &k.Up, &k.Down, &k.Choose} {
		b.SetEnabled(false)
	}
	for _, b := range []*key.Binding{&k.Done, &k.Copy, &k.Open} {
		b.SetEnabled(true)
	}
}
