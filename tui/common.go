package tui

import "vouch/tui/kit"

// Common is the root's context: the [kit.Common] every component receives
// (size, styles, clock) and every key binding of the interface. The root
// and the panes that still live in it read their group from Keys; a pane
// family in its own package gets kit.Common and its own KeyMap instead.
type Common struct {
	kit.Common
	// Keys are the configured bindings; components copy their group.
	Keys KeyMap
}

// sized returns a copy of c with another size.
func (c Common) sized(width, height int) Common {
	c.Common = c.Common.Sized(width, height)
	return c
}
