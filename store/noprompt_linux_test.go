//go:build linux

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"vouch/internal/e2epeer"

	"github.com/godbus/dbus"
)

// TestGetNoPromptLockedSecretService locks the real login collection and
// checks that GetNoPrompt reports it locked at once, without the prompt a
// plain Get would raise (SPEC B6). Runs where a Secret Service is on the
// session bus; fails under VOUCH_E2E=1 when it is missing.
func TestGetNoPromptLockedSecretService(t *testing.T) {
	requireSecretService(t)
	// The test relocks nothing it cannot unlock: it needs the collection's
	// password (set by .ci/with-keyring) to unlock it again afterwards.
	password := os.Getenv("VOUCH_TEST_KEYRING_PASSWORD")
	if password == "" {
		e2epeer.Require(t, errors.New("VOUCH_TEST_KEYRING_PASSWORD is not set, so the login collection could not be unlocked again"))
	}
	s, err := NewSecrets(SecretsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	key := fmt.Sprintf("test:noprompt:%d", os.Getpid())
	if err := s.Set(ctx, key, "warm-secret"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Delete(context.Background(), key) })
	if got, err := s.GetNoPrompt(ctx, key); err != nil || got != "warm-secret" {
		t.Fatalf("unlocked: GetNoPrompt = %q, %v; want the secret", got, err)
	}

	conn, err := dbus.SessionBus()
	if err != nil {
		t.Fatal(err)
	}
	svc := conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets")
	coll := dbus.ObjectPath("/org/freedesktop/secrets/collection/" + secretServiceCollection)
	var locked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	if err := svc.Call("org.freedesktop.Secret.Service.Lock", 0, []dbus.ObjectPath{coll}).Store(&locked, &prompt); err != nil {
		t.Fatalf("lock the login collection: %v", err)
	}
	t.Cleanup(func() { unlockWithPassword(t, conn, coll, password) })
	start := time.Now()
	_, err = s.GetNoPrompt(ctx, key)
	if !errors.Is(err, ErrKeyringLocked) {
		t.Fatalf("locked: GetNoPrompt error = %v, want ErrKeyringLocked", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("locked: GetNoPrompt took %s, want an immediate answer", took)
	}
}

func TestGetNoPromptFilePassphrasePrompt(t *testing.T) {
	asked := false
	s, err := NewSecrets(SecretsOptions{
		StateDir:   t.TempDir(),
		Getenv:     env{"VOUCH_KEYRING_BACKEND": "file"}.get,
		Passphrase: func(string) (string, error) { asked = true; return "pw", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetNoPrompt(context.Background(), "k"); !errors.Is(err, ErrKeyringLocked) {
		t.Fatalf("GetNoPrompt error = %v, want ErrKeyringLocked", err)
	}
	if asked {
		t.Error("GetNoPrompt asked for the passphrase")
	}
}

// unlockWithPassword unlocks a gnome-keyring collection without a prompt,
// through gnome-keyring's own interface for that.
func unlockWithPassword(t *testing.T, conn *dbus.Conn, coll dbus.ObjectPath, password string) {
	t.Helper()
	svc := conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets")
	var out dbus.Variant
	var session dbus.ObjectPath
	if err := svc.Call("org.freedesktop.Secret.Service.OpenSession", 0, "plain", dbus.MakeVariant("")).Store(&out, &session); err != nil {
		t.Errorf("open a plain session to unlock the collection: %v", err)
		return
	}
	secret := struct {
		Session     dbus.ObjectPath
		Parameters  []byte
		Value       []byte
		ContentType string
	}{session, []byte{}, []byte(password), "text/plain"}
	call := svc.Call("org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface.UnlockWithMasterPassword", 0, coll, secret)
	if call.Err != nil {
		t.Errorf("unlock the login collection again: %v", call.Err)
	}
}
