package app

import (
	"context"
	"errors"
	"testing"

	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
)

// TestFailedActivationStaysInactive covers issue 16 item 8 (SPEC B4): an
// OAuth server whose activation fails is not left active — neither in the
// manager (which would keep dialling it) nor in the database.
func TestFailedActivationStaysInactive(t *testing.T) {
	srv, err := mcptest.NewServer(mcptest.Options{Mode: mcptest.ModeOAuth})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	a := openTestApp(t, t.TempDir())
	t.Cleanup(func() {
		if err := a.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	ctx := context.Background()
	rec, err := a.MCP().Save(ctx, "", "oauth", srv.URL, "", nil)
	if err != nil {
		t.Fatalf("Save() error = %v", err)
	}
	err = a.MCP().SetActive(ctx, rec.ID, true)
	if !errors.Is(err, mcpclient.ErrOAuthUnsupported) {
		t.Fatalf("SetActive() error = %v, want OAuth unsupported", err)
	}
	if st, _ := a.MCP().Manager().Server(rec.ID); st.Config.Active || st.Status != mcpclient.StatusInactive {
		t.Errorf("manager: active %v, status %v; want inactive", st.Config.Active, st.Status)
	}
	got, err := a.MCP().ByName("oauth")
	if err != nil || got.Active {
		t.Errorf("stored server active = %v (err %v), want inactive", got.Active, err)
	}
}
