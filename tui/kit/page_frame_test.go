package kit

import (
	"errors"
	"strings"
	"testing"
)

// TestLoadsKeepActionErrors: a failed load's sentence goes when a later
// load succeeds; a failed action's sentence stays through the reload the
// action triggers, until the next action says something else — every
// Settings page and pane reads errors the same way (SPEC L1).
func TestLoadsKeepActionErrors(t *testing.T) {
	var s Loads
	if s.Settle(s.Begin(), errors.New("the database is locked")) || s.Err == "" {
		t.Fatalf("failed load: %+v", s)
	}
	if !s.Settle(s.Begin(), nil) || s.Err != "" {
		t.Fatalf("a successful load kept the failed load's sentence %q", s.Err)
	}
	s.Report(errors.New("the server refused the removal"), "Removed.")
	if !s.Settle(s.Begin(), nil) || s.Err == "" {
		t.Fatal("the reload after a failed action hid why it failed")
	}
	s.Report(nil, "Removed.")
	if s.Err != "" || s.Notice != "Removed." {
		t.Fatalf("the next action's outcome did not replace the error: %+v", s)
	}
}

// TestScrollBlocks: the list scrolls as little as needed for the block at
// the cursor to show whole; a block taller than the room shows its first
// lines, so a short page never shows no item at all (SPEC L6).
func TestScrollBlocks(t *testing.T) {
	blocks := [][]string{{"a"}, {"b", "b1"}, {"c", "c1", "c2"}, {"d"}}
	for _, tc := range []struct {
		name     string
		at, room int
		want     string
	}{
		{"all fit", 0, 7, "a b b1 c c1 c2 d"},
		{"the top stays while the cursor shows", 1, 3, "a b b1"},
		{"scrolled to the cursor", 2, 4, "c c1 c2 d"},
		{"taller than the room", 2, 2, "c c1"},
		{"one line", 1, 1, "b"},
		{"no room", 1, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(ScrollBlocks(blocks, tc.at, tc.room), " ")
			if got != tc.want {
				t.Errorf("ScrollBlocks(at %d, room %d) = %q, want %q", tc.at, tc.room, got, tc.want)
			}
		})
	}
}
