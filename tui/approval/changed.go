package approval

import (
	"strings"

	"vouch/agent"
)

// What changed (SPEC D8). A call whose tool changed since the person
// classified it has a preview that opens with agent.ChangedTitle, followed
// by one unified diff per part of the definition that changed: "---
// description (classified)" / "+++ description (served now)", then the
// input schema, the output schema and the annotations. The diffs are the
// write tools' (agent's unified diff), so the pane draws them as it draws
// a file write; this file only teaches the layout that such a preview has
// several diffs in a row, each with its own header, and that its first
// line is vouch's own title, not the server's text.

// isChangedPreview reports whether preview is a changed tool's.
func isChangedPreview(preview string) bool {
	return strings.HasPrefix(preview, agent.ChangedTitle)
}

// changedKind classifies one line of a preview: in a changed tool's
// (changed), the title is a section and each part's "---"/"+++" pair is a
// header that ends the previous part's hunk; every other line is a diff
// line as diffKind says.
func changedKind(line string, inHunk *bool, changed bool) argLineKind {
	if changed {
		switch {
		case line == agent.ChangedTitle:
			return lineSection
		case strings.HasPrefix(line, "--- ") && strings.HasSuffix(line, agent.ChangedOld),
			strings.HasPrefix(line, "+++ ") && strings.HasSuffix(line, agent.ChangedNew):
			*inHunk = false
			return lineDiffHeader
		}
	}
	return diffKind(line, inHunk)
}
