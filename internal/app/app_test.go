package app

import (
	"context"
	"testing"
)

// openTestApp opens a session on the state dir state with a fresh
// workspace; the test closes it.
func openTestApp(t *testing.T, state string) *App {
	t.Helper()
	a, err := Open(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
