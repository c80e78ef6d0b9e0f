package chat

import "vouch/agent"

// Namer names a tool as people read it: its server's label and its name,
// "demo tools › lookup" for mcp:<serverUUID>:lookup (issue 18 item 9).
// The identity stays where it matters — the approval pane shows both. A
// Namer answers from memory and never blocks on I/O: the transcript calls
// it while rendering. What it returns is drawn through safetext.
type Namer func(identity string) string

// nameTool resolves a tool item's label once, before its first render; an
// item of an unknown wire name keeps ToolName's "(unknown tool)".
func (t *Transcript) nameTool(it *Item) {
	if it.Kind != ItemTool || it.label != "" || t.Namer == nil || it.Call.Identity == "" {
		return
	}
	it.label = t.Namer(it.Call.Identity)
}

// ToolName is how this transcript names a call's tool: its label when the
// transcript has a Namer, else ToolName's identity. The phase line can name
// a running tool the same way.
func (t *Transcript) ToolName(c agent.ToolCall) string {
	if t.Namer != nil && c.Identity != "" {
		return t.Namer(c.Identity)
	}
	return ToolName(c)
}
