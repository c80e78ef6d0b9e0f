package tui

import (
	"time"
)

// afterQuiet returns m with its clock moved past the settle period, as if
// the person paused to read what is on screen (SPEC D7).
func afterQuiet(m Model) Model {
	now := m.common.Now().Add(m.opts.KeyGrace)
	m.common.Now = func() time.Time { return now }
	return m
}
