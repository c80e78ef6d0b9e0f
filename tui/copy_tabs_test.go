package tui

import (
	"encoding/base64"
	"strings"
	"testing"

	"vouch/agent"
	"vouch/tui/clipboard"
)

// clipboardText decodes the last OSC 52 payload written to clip.
func clipboardText(t *testing.T, clip *syncBuffer) string {
	t.Helper()
	s := clip.String()
	i := strings.LastIndex(s, "\x1b]52;c;")
	if i < 0 {
		t.Fatalf("no OSC 52 write in %q", s)
	}
	payload, _, _ := strings.Cut(s[i+len("\x1b]52;c;"):], "\a")
	text, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatalf("OSC 52 payload %q: %v", payload, err)
	}
	return string(text)
}

// TestCopyKeepsTabs (issue 18 item 16): ctrl+g copies a Makefile recipe
// with its tab, and ctrl+y the answer with its tabs; what a tab separates
// is still neutralised.
func TestCopyKeepsTabs(t *testing.T) {
	b := newFakeBackend()
	clip := &syncBuffer{}
	m := startModel(t, b, Options{Clipboard: clip})
	m, wait := sendText(t, m, "a Makefile please")
	m, _ = deliver(t, m, b, wait,
		agent.TextDelta{Text: "Here:\n```make\nall:\n\tgo build ./...\n\t\x1b[31mgo\x1b[0m test\t./...\n```"},
		agent.Done{Reason: agent.StopDone})

	m, cmd := update(m, keyCtrlG)
	m, _ = update(m, awaitMsg[clipboard.CopiedMsg](t, cmd))
	if got, want := clipboardText(t, clip), "all:\n\tgo build ./...\n\tgo test\t./..."; got != want {
		t.Fatalf("ctrl+g copied %q, want %q", got, want)
	}
	_, cmd = update(m, keyCtrlY)
	awaitMsg[clipboard.CopiedMsg](t, cmd)
	if got := clipboardText(t, clip); !strings.Contains(got, "\n\tgo build") || strings.Contains(got, "\x1b") {
		t.Fatalf("ctrl+y copied %q, want the tabs kept and no escape", got)
	}
}
