package mcpclient

import (
	"encoding/json"
	"testing"
)

// TestDigestCoversVisibility (SPEC D8, J2; issue 24 item 1): an app-only
// tool the person allowed serves another definition once the server also
// exposes it to the model, so the rule pinned to it no longer applies; a
// tool without MCP Apps visibility digests as before.
func TestDigestCoversVisibility(t *testing.T) {
	base := ToolInfo{Name: "refresh", Description: "Refresh the view.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	appOnly, both, uriOnly := base, base, base
	appOnly.UI = &ToolUI{Visibility: []string{VisibilityApp}, VisibilitySet: true}
	both.UI = &ToolUI{Visibility: []string{VisibilityApp, VisibilityModel}, VisibilitySet: true}
	uriOnly.UI = &ToolUI{ResourceURI: "ui://view"}
	d := func(ti ToolInfo) string { return withDigest(ti).Digest }
	if d(appOnly) == d(both) {
		t.Error("app-only and model-visible digest alike")
	}
	if d(uriOnly) != d(base) {
		t.Error("a tool that names no visibility digests differently from before")
	}
	if d(appOnly) == d(base) {
		t.Error("an app-only tool digests like one visible to everyone")
	}
}
