package tui

import (
	"strings"
	"testing"
)

// TestSettingsCountsReadRight (issue 18 item 19): one server reads "1
// server", never "1 servers".
func TestSettingsCountsReadRight(t *testing.T) {
	fs := &fakeServers{servers: sampleServers()[:1]}
	m := openSettings(t, fs)
	view := m.View()
	if !strings.Contains(view, "1 server · 1 active") || strings.Contains(view, "1 servers") {
		t.Errorf("the server list's count:\n%s", view)
	}
}
