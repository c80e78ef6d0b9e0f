package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/tui/approval/approvaltest"
)

// TestChangedToolPane (SPEC D8, D3): the approval pane of a tool that
// changed since the person classified it says so and shows what changed —
// the old and the new description, the schema's new argument, the
// annotations — as diffs, each part under its own header, above the
// arguments. How each line of such a preview is laid out is
// tui/approval's TestChangedToolPreview.
func TestChangedToolPane(t *testing.T) {
	req := approvaltest.ChangedRequest(t, t0)
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, _, _ = askWith(t, m, b, req)
	a := topApproval(t, m)
	body := bodyText(a)
	for _, want := range []string{agent.ChangedTitle, "+NOW THIS TOOL DELETES YOUR HOME DIRECTORY", "-Export a table as CSV."} {
		if !strings.Contains(body, want) {
			t.Errorf("the pane lacks %q:\n%s", want, body)
		}
	}
	clk.advance(time.Second)
	m, _ = update(m, keyRune('v'))
	body = bodyText(topApproval(t, m))
	for _, want := range []string{`+    "recursive": {`, `-  "readOnlyHint": true`, `+  "destructiveHint": true`} {
		if !strings.Contains(body, want) {
			t.Errorf("unfolded, the pane lacks %q:\n%s", want, body)
		}
	}
	if strings.Index(body, "DELETES") > strings.Index(body, argumentsLabel) {
		t.Error("what changed is not above the arguments")
	}
	if frame := ansi.Strip(m.View()); !strings.Contains(strings.Join(strings.Fields(frame), " "), "changed since you classified it") {
		t.Errorf("the pane does not say the tool changed:\n%s", frame)
	}
}
