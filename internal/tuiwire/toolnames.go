package tuiwire

import (
	"vouch/tui"
	tuipolicy "vouch/tui/settings/policy"
)

// The Backend names tools as people read them, "demo tools › lookup"
// (issue 18 item 9), through the embedded app.Chat's ToolName: the
// transcript and Settings › Policy find it by type assertion.
var (
	_ tui.ToolNamer       = (*Backend)(nil)
	_ tuipolicy.ToolNamer = (*Backend)(nil)
)
