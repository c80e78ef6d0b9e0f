package store

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/99designs/keyring"
	"github.com/godbus/dbus"
)

// Keyring backends, as named in VOUCH_KEYRING_BACKEND and by Backend.
const (
	BackendSecretService = "secret-service" // freedesktop Secret Service (gnome-keyring, KeePassXC) over D-Bus
	BackendKeyctl        = "keyctl"         // the Linux kernel keyring, user scope; kept in memory until reboot
	BackendFile          = "file"           // JWE-encrypted files under <state dir>/keyring, behind a passphrase
	BackendKeychain      = "keychain"       // macOS Keychain
	BackendWinCred       = "wincred"        // Windows Credential Manager
	backendCustom        = "custom"         // SecretsOptions.Keyring
)

const (
	keyringServiceName = "vouch"
	// The Secret Service collection: "login" is the one a desktop session
	// unlocks; any other collection needs an unlock prompt, which never
	// comes on a headless session.
	secretServiceCollection = "login"
	// keyItemPrefix namespaces vouch's items inside shared stores (the
	// login collection is searched by key alone).
	keyItemPrefix = "vouch:"
	// keyringDirName is the file backend's directory inside the state dir.
	keyringDirName = "keyring"
)

// chooseBackend applies SPEC K2: VOUCH_KEYRING_BACKEND wins; otherwise the
// platform's store, and on Linux the Secret Service when a session bus is
// advertised, else the kernel keyring (SSH without a desktop). The file
// backend is used only when asked for.
func chooseBackend(getenv func(string) string, goos string) (string, error) {
	if b := getenv("VOUCH_KEYRING_BACKEND"); b != "" {
		switch b {
		case BackendSecretService, BackendKeyctl, BackendFile, BackendKeychain, BackendWinCred:
			return b, nil
		}
		return "", fmt.Errorf("VOUCH_KEYRING_BACKEND=%q is not a keyring backend; use secret-service, keyctl or file", b)
	}
	switch goos {
	case "darwin":
		return BackendKeychain, nil
	case "windows":
		return BackendWinCred, nil
	case "linux":
		if getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
			return BackendSecretService, nil
		}
		return BackendKeyctl, nil
	}
	return "", fmt.Errorf("no OS keyring on %s: %w", goos, ErrKeyringUnavailable)
}

// keyringConfig builds the 99designs/keyring configuration for backend.
func keyringConfig(backend string, opts SecretsOptions) (keyring.Config, error) {
	cfg := keyring.Config{
		AllowedBackends: []keyring.BackendType{keyring.BackendType(backend)},
		ServiceName:     keyringServiceName,
	}
	switch backend {
	case BackendSecretService:
		cfg.LibSecretCollectionName = secretServiceCollection
	case BackendKeyctl:
		cfg.KeyCtlScope = "user"
	case BackendKeychain:
		cfg.KeychainTrustApplication = true
	case BackendWinCred:
		cfg.WinCredPrefix = keyringServiceName
	case BackendFile:
		if opts.StateDir == "" {
			return cfg, fmt.Errorf("the file keyring needs a state directory: %w", ErrKeyringUnavailable)
		}
		cfg.FileDir = filepath.Join(opts.StateDir, keyringDirName)
		cfg.FilePasswordFunc = opts.Passphrase
		if cfg.FilePasswordFunc == nil {
			pass := opts.Getenv("VOUCH_KEYRING_PASSPHRASE")
			if pass == "" {
				return cfg, fmt.Errorf("the file keyring needs a passphrase; set VOUCH_KEYRING_PASSPHRASE: %w", ErrKeyringUnavailable)
			}
			cfg.FilePasswordFunc = func(string) (string, error) { return pass, nil }
		}
	}
	return cfg, nil
}

// classifyKeyringError maps a backend error to the package's sentinels.
func classifyKeyringError(err error) error {
	switch {
	case errors.Is(err, keyring.ErrKeyNotFound):
		return ErrSecretNotFound
	case errors.Is(err, keyring.ErrNoAvailImpl):
		return ErrKeyringUnavailable
	case dbusErrorName(err) != "":
		switch dbusErrorName(err) {
		case "org.freedesktop.Secret.Error.IsLocked":
			return ErrKeyringLocked
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NoReply",
			"org.freedesktop.DBus.Error.Disconnected":
			return ErrKeyringUnavailable
		}
	case err.Error() == "aes.KeyUnwrap(): integrity check failed.":
		// The file backend's answer to a wrong passphrase (jose2go).
		return ErrKeyringLocked
	}
	return nil
}

// dbusErrorName returns the D-Bus error name in err's chain, if any.
func dbusErrorName(err error) string {
	var v dbus.Error
	if errors.As(err, &v) {
		return v.Name
	}
	var p *dbus.Error
	if errors.As(err, &p) && p != nil {
		return p.Name
	}
	return ""
}
