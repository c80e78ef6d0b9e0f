package agent

import (
	"bytes"
	"encoding/json"
	"strings"

	"vouch/policy"
)

// ChangedTitle opens the preview of a call whose tool changed since the
// person classified it (SPEC D8); the approval pane styles the part.
const ChangedTitle = "This tool changed since you classified it:"

// UnseenTitle opens the preview of a call whose rule was set before any
// server served the tool (policy.ReasonUnseen): the whole definition
// served follows, since nobody has seen it.
const UnseenTitle = "You set your rule before vouch saw this tool; it serves now:"

// UnseenAllowPins closes that preview: what allowing the call does.
const UnseenAllowPins = "Allowing this call pins your rule to this definition; it then applies until the definition changes."

// Labels of the parts of a changed definition, as the diff names them:
// "--- description (classified)", "+++ description (served now)".
const (
	ChangedOld = " (classified)"
	ChangedNew = " (served now)"
)

// changePreview renders what changed between the definition a rule pinned
// and the one served now (SPEC D8): one unified diff per part that
// differs — name, title, description, input and output schema (indented,
// keys sorted), annotations — with the write tools' diff. "" when c is
// nil. The approval pane shows it above the arguments.
func changePreview(c *policy.Change) string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	old, errOld := policy.ParseCanonical(c.Pinned)
	cur, errCur := policy.ParseCanonical(c.Served)
	if c.Pinned == "" && c.Served != "" && errCur == nil {
		return unseenPreview(cur)
	}
	b.WriteString(ChangedTitle + "\n")
	switch {
	case c.Pinned == "" || errOld != nil:
		b.WriteString("(vouch does not have the definition you classified, so it cannot show the difference; review the tool as served now.)\n")
		return b.String()
	case c.Served == "" || errCur != nil:
		b.WriteString("(the server does not list this tool now, or lists a definition vouch cannot read.)\n")
		return b.String()
	}
	parts := []struct {
		name     string
		old, new string
	}{
		{"name", old.Name, cur.Name},
		{"title", old.Title, cur.Title},
		{"description", old.Description, cur.Description},
		{"input schema", indentJSON(old.InputSchema), indentJSON(cur.InputSchema)},
		{"output schema", indentJSON(old.OutputSchema), indentJSON(cur.OutputSchema)},
		{"annotations", indentJSON(old.Annotations), indentJSON(cur.Annotations)},
		{"visibility", visibilityLine(old.Visibility), visibilityLine(cur.Visibility)},
	}
	for _, p := range parts {
		b.WriteString(unifiedDiff(p.name+ChangedOld, p.name+ChangedNew, lineEnd(p.old), lineEnd(p.new)))
	}
	return b.String()
}

// unseenPreview shows a definition nobody has seen, part by part.
func unseenPreview(d policy.Definition) string {
	var b strings.Builder
	b.WriteString(UnseenTitle + "\n")
	for _, p := range []struct{ name, text string }{
		{"name", d.Name}, {"title", d.Title}, {"description", d.Description},
		{"input schema", indentJSON(d.InputSchema)}, {"output schema", indentJSON(d.OutputSchema)},
		{"annotations", indentJSON(d.Annotations)}, {"visibility", visibilityLine(d.Visibility)},
	} {
		if p.text != "" {
			b.WriteString(p.name + ": " + lineEnd(p.text))
		}
	}
	b.WriteString(UnseenAllowPins + "\n")
	return b.String()
}

// visibilityLine words a tool's MCP Apps audiences ("" when it names
// none: everyone).
func visibilityLine(v []string) string {
	if v == nil {
		return ""
	}
	if len(v) == 0 {
		return "nobody"
	}
	return strings.Join(v, ", ")
}

// indentJSON indents canonical JSON for a line diff; "" for none.
func indentJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// lineEnd ends non-empty text with a newline, so the diff does not mark
// every last line "No newline at end of file".
func lineEnd(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
