package policy

import (
	vpolicy "vouch/policy"
	"vouch/safetext"
)

// toolNames asks pe, when it is a ToolNamer, for the names of every
// identity the rules and records list; nil otherwise. It runs inside the
// load's tea.Cmd.
func toolNames(pe Editor, rules []vpolicy.Rule, records []vpolicy.Record) map[string]string {
	n, ok := pe.(ToolNamer)
	if !ok {
		return nil
	}
	names := make(map[string]string, len(rules)+len(records))
	add := func(identity string) {
		if _, ok := names[identity]; !ok && identity != "" {
			names[identity] = n.ToolName(identity)
		}
	}
	for _, r := range rules {
		add(r.Identity)
	}
	for _, r := range records {
		add(r.Identity)
	}
	return names
}

// toolName fits a tool in width cells as people read it, "demo tools ›
// lookup", neutralised; an identity with no name known is shortened as
// shortIdentity does.
func (p Page) toolName(identity string, width int) string {
	if n, ok := p.names[identity]; ok && n != "" {
		return safetext.Line(n, width)
	}
	return shortIdentity(identity, width)
}
