// Package settingstest holds what the tests of the Settings pages share:
// a page shown in the Settings frame at a size, as the root shows it, so
// a page's view is judged inside the frame's title, tabs and help. Only
// tests import it; the product links no test package.
package settingstest

import (
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
)

// Framed shows p as the only page of Settings at w x h, so it is sized as
// the frame sizes its pages.
func Framed(p settings.Page, w, h int) settings.Model {
	return settings.New(kittest.Common(w, h), settings.DefaultKeyMap(), "Tools & Workflows", p).SetSize(w, h).(settings.Model)
}
