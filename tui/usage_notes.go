package tui

import (
	"errors"
	"strings"

	"vouch/agent"
	"vouch/tui/kit"
)

// usageNotes is what the status line says about a turn's counting and
// tools: which of vouch's own tools a small window left out (SPEC F5), and
// that the prompt was counted with vouch's estimate because the server's
// tokenizer was slow or failing (SPEC F4; issue 18 item 2). "" when there
// is nothing to say. Said when the Usage arrives and again when the run
// ends.
func usageNotes(u agent.Usage) string {
	var parts []string
	if u.ToolsNote != "" {
		parts = append(parts, u.ToolsNote)
	}
	if u.CountNote != "" {
		parts = append(parts, "this prompt was "+u.CountNote)
	}
	if len(parts) == 0 {
		return ""
	}
	return kit.Sentence(errors.New(strings.Join(parts, "; ")))
}
