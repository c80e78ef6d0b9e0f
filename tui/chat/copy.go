package chat

import (
	"strings"

	"vouch/safetext"
)

// Copyable is text as a copy puts it on the clipboard (ctrl+y, ctrl+g):
// neutralised like everything drawn — no terminal control, every hidden
// code point made visible — but with its tabs kept, which the screen
// shows as spaces: a Makefile recipe must still start with a tab when it
// is pasted (issue 18 item 16). A tab is no terminal control; each piece
// between tabs is neutralised on its own, so nothing hidden can straddle
// one.
func Copyable(text string) string {
	if !strings.Contains(text, "\t") {
		return safetext.Neutralize(text)
	}
	parts := strings.Split(text, "\t")
	for i, p := range parts {
		parts[i] = safetext.Neutralize(p)
	}
	return strings.Join(parts, "\t")
}
