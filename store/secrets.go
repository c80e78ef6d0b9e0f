package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/99designs/keyring"
)

// DefaultKeyringTimeout bounds every keyring call that has no earlier
// deadline in its context.
const DefaultKeyringTimeout = 3 * time.Second

// SecretsOptions configures NewSecrets. Only StateDir matters in production;
// the rest has defaults.
type SecretsOptions struct {
	// StateDir is vouch's state directory; the file backend keeps its
	// encrypted files in StateDir/keyring.
	StateDir string
	// Passphrase unlocks the file backend (e.g. a terminal prompt). Nil
	// means VOUCH_KEYRING_PASSPHRASE.
	Passphrase func(prompt string) (string, error)
	// Timeout bounds each call; zero means DefaultKeyringTimeout. A context
	// deadline that comes sooner wins.
	Timeout time.Duration
	// Getenv reads VOUCH_KEYRING_BACKEND, DBUS_SESSION_BUS_ADDRESS and
	// VOUCH_KEYRING_PASSPHRASE; nil means os.Getenv.
	Getenv func(string) string
	// Keyring, when set, is used instead of an OS keyring (tests and the
	// demo). Backend then reports "custom".
	Keyring keyring.Keyring
}

// Secrets stores credentials (API keys, MCP secret headers) in the OS
// keyring, never in the database (SPEC B1, K2). Every call runs on its own
// goroutine under a timeout, so a hung D-Bus or an unanswered unlock prompt
// costs the caller at most the timeout, never a freeze. Values never appear
// in errors and are never logged.
//
// Its methods are safe for concurrent use. The backend is opened on first
// use and kept; a failed open is retried by the next call.
type Secrets struct {
	backend string
	timeout time.Duration
	open    func() (keyring.Keyring, error)
	// promptsForPassphrase is set when the file backend would ask the
	// person for its passphrase; GetNoPrompt then reports it locked.
	promptsForPassphrase bool
	// locked, when set, reports whether getting a secret would need an
	// unlock prompt (the Secret Service's login collection is locked).
	locked func() (bool, error)

	mu   sync.Mutex // held while opening, so calls share one backend
	ring keyring.Keyring
}

// NewSecrets chooses the keyring backend (see Backend) without touching it:
// it does no I/O and cannot hang.
func NewSecrets(opts SecretsOptions) (*Secrets, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultKeyringTimeout
	}
	s := &Secrets{timeout: opts.Timeout}
	if opts.Keyring != nil {
		s.backend, s.ring = backendCustom, opts.Keyring
		return s, nil
	}
	backend, err := chooseBackend(opts.Getenv, runtime.GOOS)
	if err != nil {
		return nil, fmt.Errorf("choose keyring: %w", err)
	}
	cfg, err := keyringConfig(backend, opts)
	if err != nil {
		return nil, fmt.Errorf("keyring %s: %w", backend, err)
	}
	s.backend = backend
	s.open = func() (keyring.Keyring, error) { return keyring.Open(cfg) }
	s.promptsForPassphrase = backend == BackendFile && opts.Passphrase != nil
	if backend == BackendSecretService {
		s.locked = secretServiceLocked
	}
	return s, nil
}

// Backend names the keyring in use: "secret-service", "keyctl", "file",
// "keychain", "wincred", or "custom".
func (s *Secrets) Backend() string { return s.backend }

// Get returns the secret stored under key, or an error wrapping
// ErrSecretNotFound, ErrKeyringTimeout, ErrKeyringUnavailable or
// ErrKeyringLocked.
func (s *Secrets) Get(ctx context.Context, key string) (string, error) {
	return call(ctx, s, "get", key, "", func(r keyring.Keyring) (string, error) {
		item, err := r.Get(keyItemPrefix + key)
		return string(item.Data), err
	})
}

// Set stores value under key, replacing any previous value.
func (s *Secrets) Set(ctx context.Context, key, value string) error {
	_, err := call(ctx, s, "set", key, value, func(r keyring.Keyring) (struct{}, error) {
		return struct{}{}, r.Set(keyring.Item{
			Key:   keyItemPrefix + key,
			Data:  []byte(value),
			Label: "vouch: " + key,
		})
	})
	return err
}

// Delete removes the secret under key. Deleting a missing key is not an
// error.
func (s *Secrets) Delete(ctx context.Context, key string) error {
	_, err := call(ctx, s, "delete", key, "", func(r keyring.Keyring) (struct{}, error) {
		err := r.Remove(keyItemPrefix + key)
		if errors.Is(err, keyring.ErrKeyNotFound) || errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		return struct{}{}, err
	})
	return err
}

// keyring returns the open backend, opening it on first use.
func (s *Secrets) keyring() (keyring.Keyring, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ring != nil {
		return s.ring, nil
	}
	r, err := s.open()
	if err != nil {
		return nil, err
	}
	s.ring = r
	return r, nil
}

// call runs fn against the backend on its own goroutine and waits at most
// until the earlier of ctx's deadline and s.timeout. A call that times out
// is abandoned, not stopped: its goroutine ends whenever the backend
// answers. secret, when not empty, is scrubbed from any error text.
func call[T any](ctx context.Context, s *Secrets, op, key, secret string, fn func(keyring.Keyring) (T, error)) (T, error) {
	var zero T
	if key == "" {
		return zero, fmt.Errorf("keyring %s: empty key: %w", op, ErrInvalid)
	}
	budget := s.timeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < budget {
		budget = time.Until(dl)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()

	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned goroutine never blocks
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("keyring backend panicked: %v", p)
			}
			done <- r
		}()
		ring, err := s.keyring()
		if err != nil {
			r.err = err
			return
		}
		r.v, r.err = fn(ring)
	}()

	select {
	case r := <-done:
		if r.err != nil {
			return zero, keyringError(op, key, secret, r.err)
		}
		return r.v, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return zero, fmt.Errorf("keyring %s %q (no answer after %s): %w",
				op, key, budget.Round(time.Millisecond), ErrKeyringTimeout)
		}
		return zero, fmt.Errorf("keyring %s %q: %w", op, key, ctx.Err())
	}
}

// keyringError wraps a backend error with the operation and key, maps it
// to a sentinel, and scrubs the secret from its text.
func keyringError(op, key, secret string, err error) error {
	cause := err
	if secret != "" && strings.Contains(err.Error(), secret) {
		cause = errors.New(strings.ReplaceAll(err.Error(), secret, "[redacted]"))
	}
	switch sentinel := classifyKeyringError(err); {
	case sentinel == nil:
		return fmt.Errorf("keyring %s %q: %w", op, key, cause)
	case sentinel == ErrSecretNotFound:
		return fmt.Errorf("keyring %s %q: %w", op, key, sentinel)
	default:
		return fmt.Errorf("keyring %s %q: %w (%w)", op, key, sentinel, cause)
	}
}
