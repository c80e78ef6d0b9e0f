package clitext

import (
	"strings"
	"testing"
)

// TestWrapHanging: no line passes Width, continuation lines hang at the
// indent, and a word longer than a line stays whole.
func TestWrapHanging(t *testing.T) {
	long := strings.Repeat("x", Width+5)
	got := WrapHanging("  run  ", strings.Repeat("word ", 40)+long, 7)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "  run  word") {
		t.Fatalf("wrapped into %q", lines)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "       ") {
			t.Errorf("continuation %q does not hang at 7", l)
		}
		if len(l) > Width && strings.TrimSpace(l) != long {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if !strings.HasSuffix(got, long+"\n") {
		t.Errorf("the long word was split: %q", got)
	}
}

// TestEditDistanceAndPlural: the distance a suggestion is chosen by, in
// runes, and counts with their plural.
func TestEditDistanceAndPlural(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"polcy", "policy", 1}, {"runs", "runs", 0}, {"", "abc", 3}, {"é", "e", 1}, {"sever", "server", 1}} {
		if got := EditDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
	if Plural(1, "tool") != "1 tool" || Plural(0, "tool") != "0 tools" || Plural(2, "problem") != "2 problems" {
		t.Error("Plural miscounts")
	}
}

// TestWriteJSONEscapesWhatTheInterfaceNeutralises (SPEC D3): a C1 or
// bidi control in a field is escaped as \uXXXX, '<' stays itself.
func TestWriteJSONEscapesWhatTheInterfaceNeutralises(t *testing.T) {
	var b strings.Builder
	if err := WriteJSON(&b, map[string]string{"name": "a\u009b31m<b>\u202e"}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if strings.ContainsRune(got, '\u009b') || strings.ContainsRune(got, '\u202e') || !strings.Contains(got, `\u009b`) || !strings.Contains(got, "<b>") {
		t.Errorf("WriteJSON wrote %q", got)
	}
}

// TestNearest: a typo of a name (case aside, at most two edits) names it,
// the nearest winning and the first on a tie; anything further names none.
func TestNearest(t *testing.T) {
	known := []string{"server", "skills", "skill", "sessions"}
	for _, tc := range []struct{ name, want string }{
		{"sever", "server"}, {"SKIL", "skill"}, {"skils", "skills"}, {"sessons", "sessions"},
		{"quantum", ""}, {"", ""},
	} {
		if got := Nearest(tc.name, known); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
