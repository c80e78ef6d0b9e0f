package tui

import "time"

// Common is the shared, read-only context every pane and modal receives
// explicitly: the size it may draw in, the styles, the key bindings and the
// clock. There are
// no package-level mutable variables in tui; everything a component needs
// arrives through Common or its own constructor.
type Common struct {
	// Width and Height are the cells the component may use.
	Width, Height int
	// Styles is shared and never modified after DefaultStyles builds it.
	Styles *Styles
	// Keys are the configured bindings; components copy their group.
	Keys KeyMap
	// Now is the clock. Tests pass a fixed or stepped clock.
	Now func() time.Time
}

// sized returns a copy of c with another size.
func (c Common) sized(width, height int) Common {
	c.Width, c.Height = width, height
	return c
}
