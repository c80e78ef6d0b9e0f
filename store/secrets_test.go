package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/99designs/keyring"
	"github.com/godbus/dbus"
)

// env is a fake environment for SecretsOptions.Getenv.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// hangingKeyring blocks every call until release is closed, like a
// Secret Service whose D-Bus peer stopped answering.
type hangingKeyring struct{ release chan struct{} }

func (h hangingKeyring) Get(string) (keyring.Item, error) { <-h.release; return keyring.Item{}, nil }
func (h hangingKeyring) GetMetadata(string) (keyring.Metadata, error) {
	<-h.release
	return keyring.Metadata{}, nil
}
func (h hangingKeyring) Set(keyring.Item) error  { <-h.release; return nil }
func (h hangingKeyring) Remove(string) error     { <-h.release; return nil }
func (h hangingKeyring) Keys() ([]string, error) { <-h.release; return nil, nil }

// failingKeyring answers every call with err.
type failingKeyring struct{ err error }

func (f failingKeyring) Get(string) (keyring.Item, error) { return keyring.Item{}, f.err }
func (f failingKeyring) GetMetadata(string) (keyring.Metadata, error) {
	return keyring.Metadata{}, f.err
}
func (f failingKeyring) Set(keyring.Item) error  { return f.err }
func (f failingKeyring) Remove(string) error     { return f.err }
func (f failingKeyring) Keys() ([]string, error) { return nil, f.err }

func TestChooseBackend(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     env
		goos    string
		want    string
		wantErr bool
	}{
		{name: "desktop session", env: env{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, goos: "linux", want: BackendSecretService},
		{name: "ssh without a desktop", env: env{}, goos: "linux", want: BackendKeyctl},
		{name: "override to file", env: env{"VOUCH_KEYRING_BACKEND": "file", "DBUS_SESSION_BUS_ADDRESS": "x"}, goos: "linux", want: BackendFile},
		{name: "override to keyctl", env: env{"VOUCH_KEYRING_BACKEND": "keyctl", "DBUS_SESSION_BUS_ADDRESS": "x"}, goos: "linux", want: BackendKeyctl},
		{name: "override to secret-service", env: env{"VOUCH_KEYRING_BACKEND": "secret-service"}, goos: "linux", want: BackendSecretService},
		{name: "macOS", env: env{}, goos: "darwin", want: BackendKeychain},
		{name: "Windows", env: env{}, goos: "windows", want: BackendWinCred},
		{name: "unknown override", env: env{"VOUCH_KEYRING_BACKEND": "pass"}, goos: "linux", wantErr: true},
		{name: "no OS keyring", env: env{}, goos: "plan9", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := chooseBackend(tc.env.get, tc.goos)
			if got != tc.want || (err != nil) != tc.wantErr {
				t.Errorf("chooseBackend = %q, %v; want %q, error %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestKeyringConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		backend string
		opts    SecretsOptions
		check   func(keyring.Config) string // "" when right
		wantErr error
	}{
		{name: "secret service uses the login collection", backend: BackendSecretService,
			check: func(c keyring.Config) string {
				return want(c.LibSecretCollectionName == "login" && c.ServiceName == "vouch", "collection login, service vouch")
			}},
		{name: "kernel keyring in user scope", backend: BackendKeyctl,
			check: func(c keyring.Config) string { return want(c.KeyCtlScope == "user", "scope user") }},
		{name: "file under the state dir", backend: BackendFile,
			opts: SecretsOptions{StateDir: "/s", Getenv: env{"VOUCH_KEYRING_PASSPHRASE": "pw"}.get},
			check: func(c keyring.Config) string {
				pw, err := c.FilePasswordFunc("")
				return want(c.FileDir == "/s/keyring" && pw == "pw" && err == nil, "dir /s/keyring, passphrase from env")
			}},
		{name: "file with a prompt", backend: BackendFile,
			opts: SecretsOptions{StateDir: "/s", Getenv: env{}.get, Passphrase: func(string) (string, error) { return "typed", nil }},
			check: func(c keyring.Config) string {
				pw, err := c.FilePasswordFunc("")
				return want(pw == "typed" && err == nil, "the prompt's passphrase")
			}},
		{name: "file without a passphrase", backend: BackendFile,
			opts: SecretsOptions{StateDir: "/s", Getenv: env{}.get}, wantErr: ErrKeyringUnavailable},
		{name: "file without a state dir", backend: BackendFile,
			opts: SecretsOptions{Getenv: env{"VOUCH_KEYRING_PASSPHRASE": "pw"}.get}, wantErr: ErrKeyringUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := keyringConfig(tc.backend, tc.opts)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("got %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if len(cfg.AllowedBackends) != 1 || string(cfg.AllowedBackends[0]) != tc.backend {
				t.Errorf("AllowedBackends = %v, want only %s", cfg.AllowedBackends, tc.backend)
			}
			if msg := tc.check(cfg); msg != "" {
				t.Errorf("got %+v, want %s", cfg, msg)
			}
		})
	}
}

func want(ok bool, what string) string {
	if ok {
		return ""
	}
	return what
}

// TestSecretsTimeout is SPEC K2 and STYLE anti-pattern 8: a keyring that
// never answers (or never opens) costs the caller the timeout, not a hang,
// and the error says what to do.
func TestSecretsTimeout(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // lets the abandoned goroutines end
	hung := hangingKeyring{release: release}
	const timeout = 50 * time.Millisecond
	ops := []struct {
		name string
		call func(context.Context, *Secrets) error
	}{
		{"get", func(ctx context.Context, s *Secrets) error { _, err := s.Get(ctx, "k"); return err }},
		{"set", func(ctx context.Context, s *Secrets) error { return s.Set(ctx, "k", "v") }},
		{"delete", func(ctx context.Context, s *Secrets) error { return s.Delete(ctx, "k") }},
	}
	for _, tc := range []struct {
		name    string
		secrets func() *Secrets
		ctx     func() (context.Context, context.CancelFunc)
	}{
		{name: "hung backend, option timeout", secrets: func() *Secrets {
			s, err := NewSecrets(SecretsOptions{Keyring: hung, Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}, ctx: func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }},
		{name: "hung backend, context deadline", secrets: func() *Secrets {
			s, err := NewSecrets(SecretsOptions{Keyring: hung, Timeout: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}, ctx: func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), timeout)
		}},
		{name: "hung open (D-Bus never answers)", secrets: func() *Secrets {
			return &Secrets{backend: BackendSecretService, timeout: timeout,
				open: func() (keyring.Keyring, error) { <-release; return nil, keyring.ErrNoAvailImpl }}
		}, ctx: func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }},
	} {
		for _, op := range ops {
			t.Run(tc.name+"/"+op.name, func(t *testing.T) {
				ctx, cancel := tc.ctx()
				defer cancel()
				start := time.Now()
				err := op.call(ctx, tc.secrets())
				if elapsed := time.Since(start); elapsed > 2*time.Second {
					t.Errorf("returned after %v, want about %v", elapsed, timeout)
				}
				if !errors.Is(err, ErrKeyringTimeout) {
					t.Fatalf("got %v, want ErrKeyringTimeout", err)
				}
				// The wait said is the budget the call had: the timeout, or
				// what was left of the context's deadline when it started
				// (a loaded machine spends a few ms before the call).
				msg := err.Error()
				m := regexp.MustCompile(`no answer after ([0-9.]+)(ms|µs)`).FindStringSubmatch(msg)
				if !strings.Contains(msg, "VOUCH_KEYRING_BACKEND=file") || m == nil {
					t.Fatalf("got %q, want the wait and the way out", msg)
				}
				if ms, _ := strconv.ParseFloat(m[1], 64); m[2] != "ms" || ms > 50 || ms <= 0 {
					t.Errorf("got %q, want a wait of at most the 50ms budget", msg)
				}
			})
		}
	}
}

func TestSecretsCancel(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s, err := NewSecrets(SecretsOptions{Keyring: hangingKeyring{release: release}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Get(ctx, "k"); !errors.Is(err, context.Canceled) || errors.Is(err, ErrKeyringTimeout) {
		t.Errorf("got %v, want context.Canceled and no timeout", err)
	}
}

// TestSecretsErrors maps backend answers to the sentinels, and no error
// ever carries the secret (ARCHITECTURE invariant: no secret byte in logs
// or on screen).
func TestSecretsErrors(t *testing.T) {
	const secret = "sk-live-0123456789"
	for _, tc := range []struct {
		name      string
		err       error
		op        string
		want      error // nil: no error expected
		wantNoErr bool
	}{
		{name: "not found on get", err: keyring.ErrKeyNotFound, op: "get", want: ErrSecretNotFound},
		{name: "not found on delete is fine", err: keyring.ErrKeyNotFound, op: "delete", wantNoErr: true},
		{name: "file missing on delete is fine", err: fmt.Errorf("remove x: %w", fs.ErrNotExist), op: "delete", wantNoErr: true},
		{name: "no backend", err: keyring.ErrNoAvailImpl, op: "get", want: ErrKeyringUnavailable},
		{name: "secret service locked", err: dbus.Error{Name: "org.freedesktop.Secret.Error.IsLocked"}, op: "get", want: ErrKeyringLocked},
		{name: "secret service gone", err: &dbus.Error{Name: "org.freedesktop.DBus.Error.ServiceUnknown"}, op: "set", want: ErrKeyringUnavailable},
		{name: "wrong file passphrase", err: errors.New("aes.KeyUnwrap(): integrity check failed."), op: "get", want: ErrKeyringLocked},
		{name: "backend echoes the secret", err: fmt.Errorf("cannot store %q", secret), op: "set"},
		{name: "backend panics with the secret", err: errPanic{secret}, op: "set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ring keyring.Keyring = failingKeyring{err: tc.err}
			if p, ok := tc.err.(errPanic); ok {
				ring = panickingKeyring(p)
			}
			s, err := NewSecrets(SecretsOptions{Keyring: ring})
			if err != nil {
				t.Fatal(err)
			}
			switch tc.op {
			case "get":
				_, err = s.Get(context.Background(), "provider:cloud")
			case "set":
				err = s.Set(context.Background(), "provider:cloud", secret)
			case "delete":
				err = s.Delete(context.Background(), "provider:cloud")
			}
			if tc.wantNoErr {
				if err != nil {
					t.Errorf("got %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatal("got nil, want an error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q carries the secret", err)
			}
			if !strings.Contains(err.Error(), "provider:cloud") {
				t.Errorf("error %q does not name the key", err)
			}
		})
	}
}

type errPanic struct{ msg string }

func (e errPanic) Error() string { return e.msg }

type panickingKeyring struct{ msg string }

func (p panickingKeyring) Get(string) (keyring.Item, error) { panic(p.msg) }
func (p panickingKeyring) GetMetadata(string) (keyring.Metadata, error) {
	panic(p.msg)
}
func (p panickingKeyring) Set(keyring.Item) error  { panic("backend bug near " + p.msg) }
func (p panickingKeyring) Remove(string) error     { panic(p.msg) }
func (p panickingKeyring) Keys() ([]string, error) { panic(p.msg) }

func TestSecretsEmptyKey(t *testing.T) {
	s, err := NewSecrets(SecretsOptions{Keyring: failingKeyring{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set(context.Background(), "", "v"); !errors.Is(err, ErrInvalid) {
		t.Errorf("got %v, want ErrInvalid", err)
	}
}
