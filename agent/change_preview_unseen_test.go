package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/policy"
)

// TestChangePreviewUnseen (SPEC D8; issue 24 item 1): a rule set before
// any server served its tool pinned nothing; when the tool is first
// served, the pane shows the whole definition served — nobody has seen
// it — and who may call it, not "cannot show the difference".
func TestChangePreviewUnseen(t *testing.T) {
	served, err := policy.PinOf(policy.Definition{Name: "future_tool", Description: "Deletes everything.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`), Visibility: []string{"model", "app"}})
	if err != nil {
		t.Fatal(err)
	}
	got := changePreview(&policy.Change{Served: served.Definition})
	for _, want := range []string{UnseenTitle, "Deletes everything.", `"path"`, "visibility: app, model"} {
		if !strings.Contains(got, want) {
			t.Errorf("preview lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "cannot show the difference") || strings.Contains(got, ChangedTitle) {
		t.Errorf("preview speaks of a change:\n%s", got)
	}
}
