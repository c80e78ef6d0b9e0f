package kit

import "time"

// Common is the shared, read-only context every pane and modal receives
// explicitly: the size it may draw in, the styles and the clock. There are
// no package-level mutable variables in tui or its packages; everything a
// component needs arrives through Common or its own constructor, its key
// bindings included (each pane family owns its KeyMap, and the root hands
// each component its group).
type Common struct {
	// Width and Height are the cells the component may use.
	Width, Height int
	// Styles is shared and never modified after DefaultStyles builds it.
	Styles *Styles
	// Now is the clock. Tests pass a fixed or stepped clock.
	Now func() time.Time
}

// Sized returns a copy of c with another size.
func (c Common) Sized(width, height int) Common {
	c.Width, c.Height = width, height
	return c
}
