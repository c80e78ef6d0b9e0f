package app

import (
	"context"
	"errors"
	"testing"
	"time"

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

// TestCallTimeoutStored covers SPEC B11's per-server call timeout: it is
// stored with the server, survives an edit and reaches the manager; an
// out-of-range value is refused.
func TestCallTimeoutStored(t *testing.T) {
	a := openTestApp(t, t.TempDir())
	t.Cleanup(func() {
		if err := a.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	ctx := context.Background()
	rec, err := a.MCP().Save(ctx, "", "slow", "http://127.0.0.1:9/mcp", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.MCP().SetCallTimeout(rec.ID, 5*time.Minute); err != nil {
		t.Fatalf("SetCallTimeout() error = %v", err)
	}
	if _, err := a.MCP().Save(ctx, rec.ID, "slow2", "http://127.0.0.1:9/mcp", "", nil); err != nil {
		t.Fatal(err)
	}
	got, err := a.MCP().ByName("slow2")
	if err != nil || got.CallTimeoutMS != (5*time.Minute).Milliseconds() {
		t.Errorf("stored call timeout = %d ms (err %v), want 5 min", got.CallTimeoutMS, err)
	}
	if st, _ := a.MCP().Manager().Server(rec.ID); st.Config.CallTimeout != 5*time.Minute {
		t.Errorf("manager call timeout = %s, want 5m", st.Config.CallTimeout)
	}
	if err := a.MCP().SetCallTimeout(rec.ID, time.Millisecond); err == nil {
		t.Errorf("SetCallTimeout(1ms) accepted")
	}
}
