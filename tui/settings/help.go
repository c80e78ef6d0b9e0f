package settings

import "github.com/charmbracelet/bubbles/key"

// TextTaker is a Page that, at the moment, takes typed text (a filter
// being typed): "?" is then a character for it, not Settings' help key.
type TextTaker interface {
	TakesText() bool
}

// takesText reports whether the page shown takes typed text now.
func (s Model) takesText() bool {
	t, ok := s.pages[s.active].(TextTaker)
	return ok && t.TakesText()
}

// helpKey is the help binding as the help line shows it: off while the
// page takes text. Whether the full help shows is the root's to know, so
// it reads "show/hide keys".
func (s Model) helpKey() key.Binding {
	b := s.keys.Help
	b.SetEnabled(!s.takesText())
	return b
}
