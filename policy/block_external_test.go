package policy

import (
	"strings"
	"testing"
)

// SPEC N3: a managed lock that cannot be read fails closed — every
// external tool is blocked, an allow rule included; built-ins keep their
// rules.
func TestBlockExternal(t *testing.T) {
	const reason = "The managed lock cannot be used."
	s := NewSnapshot([]Rule{{Identity: testTool, Class: Allow, Effect: ReadOnly}, {Identity: "builtin:fs_read", Class: Allow, Effect: ReadOnly}},
		Options{Workspace: testWS, BlockExternal: reason})
	if d := decide(s, testTool, `{}`); d.Verdict != VerdictBlock || d.Reason != reason {
		t.Fatalf("external: %+v, want blocked with the reason", d)
	}
	if d := decide(s, "builtin:fs_read", `{"path":"a"}`); d.Verdict != VerdictAllow {
		t.Fatalf("built-in: %+v, want its rule", d)
	}
	if got := s.Summary(testTool, ""); !strings.HasPrefix(got, "block") {
		t.Fatalf("summary %q", got)
	}
}
