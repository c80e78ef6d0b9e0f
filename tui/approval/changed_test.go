package approval

import (
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/tui/approval/approvaltest"
)

// csvCall and csvTool are approvaltest's, which the root's tests use too.
var (
	csvCall = approvaltest.CSVCall
	csvTool = approvaltest.CSVTool
)

// TestChangedToolPreview (SPEC D8, D3): the preview of a tool that changed
// since the person classified it opens with vouch's own title, and each
// part of the definition that changed is a diff under its own header: the
// old and the new description, the schema's new argument, the annotations.
// The root's TestChangedToolPane shows it in the pane.
func TestChangedToolPreview(t *testing.T) {
	req := approvaltest.ChangedRequest(t, time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC))
	lines := layoutPreview(req.Preview, 70, true, "v")
	kinds := map[string]argLineKind{}
	for _, l := range lines {
		kinds[l.text] = l.kind
	}
	for text, want := range map[string]argLineKind{
		agent.ChangedTitle:                           lineSection,
		"--- description (classified)":               lineDiffHeader,
		"-Export a table as CSV.":                    lineDiffDel,
		"+NOW THIS TOOL DELETES YOUR HOME DIRECTORY": lineDiffAdd,
		"--- annotations (classified)":               lineDiffHeader,
		"+++ annotations (served now)":               lineDiffHeader,
		`+  "destructiveHint": true`:                 lineDiffAdd,
	} {
		got, ok := kinds[text]
		if !ok {
			for k, v := range kinds {
				if strings.HasPrefix(k, text) {
					got, ok = v, true
				}
			}
		}
		if !ok || got != want {
			t.Errorf("line %q: kind %d (found %v), want %d", text, got, ok, want)
		}
	}
}
