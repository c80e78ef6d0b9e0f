package kit

import (
	"errors"
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
