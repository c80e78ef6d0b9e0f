package store

import (
	"context"
	"fmt"

	"github.com/99designs/keyring"
	"github.com/godbus/dbus"
)

// GetNoPrompt is Get for work the person did not start, such as warming MCP
// catalogs in the background (SPEC B6): it never causes an unlock prompt.
// When the secret would need one — the Secret Service's login collection is
// locked, or the file backend would ask for its passphrase — it returns an
// error wrapping ErrKeyringLocked without asking.
func (s *Secrets) GetNoPrompt(ctx context.Context, key string) (string, error) {
	if s.promptsForPassphrase {
		return "", fmt.Errorf("keyring get %q: the file keyring would ask for its passphrase: %w", key, ErrKeyringLocked)
	}
	if s.locked != nil {
		locked, err := call(ctx, s, "check lock", key, "", func(keyring.Keyring) (bool, error) { return s.locked() })
		if err != nil {
			return "", err
		}
		if locked {
			return "", fmt.Errorf("keyring get %q: the login collection is locked: %w", key, ErrKeyringLocked)
		}
	}
	return s.Get(ctx, key)
}

// secretServiceLocked reads the Locked property of the "login" collection
// over the session bus.
func secretServiceLocked() (bool, error) {
	conn, err := dbus.SessionBus()
	if err != nil {
		return false, fmt.Errorf("connect to the session bus: %w", err)
	}
	obj := conn.Object("org.freedesktop.secrets", dbus.ObjectPath("/org/freedesktop/secrets/collection/"+secretServiceCollection))
	v, err := obj.GetProperty("org.freedesktop.Secret.Collection.Locked")
	if err != nil {
		return false, fmt.Errorf("read the login collection's lock state: %w", err)
	}
	locked, ok := v.Value().(bool)
	if !ok {
		return false, fmt.Errorf("the login collection's Locked property is %T, not a bool", v.Value())
	}
	return locked, nil
}
