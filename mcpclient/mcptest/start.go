package mcptest

import "testing"

// Start is NewServer for a test: it fails t when the server cannot
// start, and closes the server when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Logf("mcptest: close: %v", err) // the test's result stands; a close after it is only said
		}
	})
	return srv
}
