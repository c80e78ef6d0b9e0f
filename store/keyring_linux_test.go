//go:build linux

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"

	"vouch/internal/e2epeer"

	"github.com/godbus/dbus"
	"golang.org/x/sys/unix"
)

// roundTrip stores, reads, replaces and deletes a secret through s.
func roundTrip(t *testing.T, s *Secrets) {
	t.Helper()
	ctx := context.Background()
	key := fmt.Sprintf("test:%s:%d", t.Name(), os.Getpid())
	t.Cleanup(func() {
		if err := s.Delete(ctx, key); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	for _, value := range []string{"first-secret", "second-secret"} {
		if err := s.Set(ctx, key, value); err != nil {
			t.Fatalf("Set: %v", err)
		}
		got, err := s.Get(ctx, key)
		if err != nil || got != value {
			t.Fatalf("Get = %q, %v; want %q", got, err, value)
		}
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Get(ctx, key); !errors.Is(err, ErrSecretNotFound) {
		t.Errorf("Get after Delete: got %v, want ErrSecretNotFound", err)
	}
}

// TestKeyctlRoundTrip runs against the real kernel keyring (user scope),
// the backend for SSH sessions without a desktop (SPEC K2).
func TestKeyctlRoundTrip(t *testing.T) {
	if _, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_USER_KEYRING, false); err != nil {
		t.Skipf("skipped: the kernel keyring is not reachable here (%v)", err)
	}
	s, err := NewSecrets(SecretsOptions{Getenv: env{"VOUCH_KEYRING_BACKEND": "keyctl"}.get})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Backend(); got != BackendKeyctl {
		t.Fatalf("Backend() = %q, want keyctl", got)
	}
	roundTrip(t, s)
}

// TestSecretServiceRoundTrip runs against a real Secret Service (e.g.
// gnome-keyring under dbus-run-session). Without one it skips, unless
// VOUCH_E2E=1, where a missing Secret Service fails.
func TestSecretServiceRoundTrip(t *testing.T) {
	requireSecretService(t)
	s, err := NewSecrets(SecretsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Backend(); got != BackendSecretService {
		t.Fatalf("Backend() = %q with a session bus, want secret-service", got)
	}
	roundTrip(t, s)
}

// requireSecretService skips t, or fails it under VOUCH_E2E=1, when no
// Secret Service is on the session bus. It also skips unless the keyring
// is a throwaway one or the person asked (keyringTestAsked): on a desktop
// the session bus holds the person's own login keyring.
func requireSecretService(t *testing.T) {
	t.Helper()
	if why := keyringTestAsked(os.Getenv); why != "" {
		t.Skip("skipped: " + why)
	}
	if reason := secretServiceMissing(); reason != "" {
		e2epeer.Require(t, fmt.Errorf("the Secret Service: %s (run under dbus-run-session with gnome-keyring to test it)", reason))
	}
}

// secretServiceMissing says why the Secret Service cannot be reached, or "".
func secretServiceMissing() string {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return "DBUS_SESSION_BUS_ADDRESS is not set"
	}
	conn, err := dbus.SessionBus()
	if err != nil {
		return fmt.Sprintf("no session bus: %v", err)
	}
	for _, method := range []string{"ListNames", "ListActivatableNames"} {
		var names []string
		if err := conn.BusObject().Call("org.freedesktop.DBus."+method, 0).Store(&names); err != nil {
			return fmt.Sprintf("session bus %s: %v", method, err)
		}
		if slices.Contains(names, "org.freedesktop.secrets") {
			return ""
		}
	}
	return "org.freedesktop.secrets is not on the session bus"
}
