package main

import (
	"context"
	"testing"
)

// openTestSession opens a session on the state dir state; the test closes
// it.
func openTestSession(t *testing.T, state string) *session {
	t.Helper()
	s, err := openSession(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
