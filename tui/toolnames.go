package tui

import "vouch/tui/chat"

// ToolNamer MAY be implemented by the Backend: it names a tool as people
// read it, "demo tools › lookup" for mcp:<serverUUID>:lookup (issue 18
// item 9). Unlike the Backend's other methods it answers from memory and
// never blocks on I/O, so the transcript calls it while rendering. Without
// it the transcript shows identities.
type ToolNamer interface {
	ToolName(identity string) string
}

// toolNamer is b's ToolNamer as the transcript takes it (nil: none).
func toolNamer(b Backend) chat.Namer {
	if n, ok := b.(ToolNamer); ok {
		return n.ToolName
	}
	return nil
}
