package tui

import (
	"errors"
	"testing"
)

// TestLoadsKeepActionErrors: a failed load's sentence goes when a later
// load succeeds; a failed action's sentence stays through the reload the
// action triggers, until the next action says something else — every
// Settings page and pane reads errors the same way (SPEC L1).
func TestLoadsKeepActionErrors(t *testing.T) {
	var s loads
	if s.settle(s.begin(), errors.New("the database is locked")) || s.err == "" {
		t.Fatalf("failed load: %+v", s)
	}
	if !s.settle(s.begin(), nil) || s.err != "" {
		t.Fatalf("a successful load kept the failed load's sentence %q", s.err)
	}
	s.report(errors.New("the server refused the removal"), "Removed.")
	if !s.settle(s.begin(), nil) || s.err == "" {
		t.Fatal("the reload after a failed action hid why it failed")
	}
	s.report(nil, "Removed.")
	if s.err != "" || s.notice != "Removed." {
		t.Fatalf("the next action's outcome did not replace the error: %+v", s)
	}
}
