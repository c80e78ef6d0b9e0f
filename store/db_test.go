package store

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// testEpoch is the fixed start of test clocks.
var testEpoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// stepClock starts at testEpoch and moves step forward on every reading.
func stepClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	now := testEpoch
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := now
		now = now.Add(step)
		return t
	}
}

// openTest opens a fresh database in a temporary directory and closes it
// when the test ends (storetest.MustOpen, which internal tests cannot import).
func openTest(t testing.TB, opts Options) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "state", FileName), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return db
}

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestOpenCreates is SPEC K1: Open creates the state directory 0700 and the
// file 0600, records itself as lock holder while open, and Close clears it.
func TestOpenCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, FileName)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Path(); got != path {
		t.Errorf("Path() = %q, want %q", got, path)
	}
	if got := fileMode(t, dir); got != 0o700 {
		t.Errorf("dir mode %v, want 0700", got)
	}
	if got := fileMode(t, path); got != 0o600 {
		t.Errorf("file mode %v, want 0600", got)
	}
	pid, since, ok := LockHolder(path)
	if !ok || pid != os.Getpid() || time.Since(since) > time.Minute {
		t.Errorf("LockHolder = %d, %v, %v; want %d, just now, true", pid, since, ok, os.Getpid())
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: got %v, want nil", err)
	}
	if _, _, ok := LockHolder(path); ok {
		t.Error("LockHolder after Close: got ok, want none")
	}
	if _, err := os.Stat(path + lockHolderSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sidecar after Close: got %v, want it removed", err)
	}
}

// TestLockHolderStale: a sidecar left by a dead process names no holder.
func TestLockHolderStale(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	for _, tc := range []struct {
		name    string
		pid     int
		wantOK  bool
		garbage bool
	}{
		{name: "live process", pid: os.Getpid(), wantOK: true},
		{name: "dead process", pid: 1<<31 - 1}, // above any pid_max
		{name: "unparsable sidecar", garbage: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.garbage {
				if err := os.WriteFile(path+lockHolderSuffix, []byte("{"), 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := writeLockHolder(path, tc.pid, testEpoch); err != nil {
				t.Fatal(err)
			}
			pid, since, ok := LockHolder(path)
			if ok != tc.wantOK {
				t.Fatalf("LockHolder ok = %v, want %v", ok, tc.wantOK)
			}
			if ok && (pid != tc.pid || !since.Equal(testEpoch)) {
				t.Errorf("LockHolder = %d, %v; want %d, %v", pid, since, tc.pid, testEpoch)
			}
		})
	}
}

func TestDefaultStateDir(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skipf("skipped: no home directory: %v", err)
	}
	for _, tc := range []struct {
		name, xdg, want string
	}{
		{name: "XDG_STATE_HOME set", xdg: "/xdg/state", want: "/xdg/state/vouch"},
		{name: "XDG_STATE_HOME unset", xdg: "", want: filepath.Join(home, ".local/state/vouch")},
		{name: "XDG_STATE_HOME relative is ignored", xdg: "rel/state", want: filepath.Join(home, ".local/state/vouch")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", tc.xdg)
			got, err := DefaultStateDir()
			if err != nil || got != tc.want {
				t.Errorf("DefaultStateDir() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestSecondInstanceInProcess is SPEC K1 and STYLE 15: opening the file
// again fails with ErrLocked after the lock timeout instead of hanging, and
// the message names the holder.
func TestSecondInstanceInProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	first, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := first.Close(); err != nil {
			t.Error(err)
		}
	}()
	for _, tc := range []struct {
		name    string
		timeout time.Duration
	}{
		{name: "default timeout", timeout: 0},
		{name: "short timeout", timeout: 100 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			second, err := Open(path, Options{Timeout: tc.timeout})
			elapsed := time.Since(start)
			if err == nil {
				t.Fatal(errors.Join(errors.New("second Open succeeded, want ErrLocked"), second.Close()))
			}
			if !errors.Is(err, ErrLocked) {
				t.Errorf("got %v, want ErrLocked", err)
			}
			if elapsed >= 2*time.Second {
				t.Errorf("failed after %v, want < 2s", elapsed)
			}
			for _, want := range []string{path, fmt.Sprintf("pid %d", os.Getpid()), "--state-dir"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %q, want it to contain %q", err, want)
				}
			}
		})
	}
}

// writeNewerSchema makes a vouch database whose schema is one version past
// this build's.
func writeNewerSchema(t *testing.T, path string) {
	t.Helper()
	db := openTest(t, Options{})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bdb, err := bbolt.Open(db.Path(), 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bbolt.Tx) error { return writeSchemaVersion(tx, SchemaVersion()+1) }); err != nil {
		t.Fatal(err)
	}
	if err := bdb.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestOpenRejects covers the files Open must refuse, each with its sentinel,
// a message naming the path, and the file left exactly as it was.
func TestOpenRejects(t *testing.T) {
	random := func(n int) func(*testing.T, string) {
		return func(t *testing.T, path string) {
			b := make([]byte, n)
			if _, err := rand.Read(b); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		make  func(*testing.T, string)
		want  error
		isDir bool
	}{
		{name: "random bytes, 100", make: random(100), want: ErrCorrupt},
		{name: "random bytes, 64 KiB", make: random(64 << 10), want: ErrCorrupt},
		{name: "zeros, 32 KiB", make: func(t *testing.T, path string) {
			if err := os.WriteFile(path, make([]byte, 32<<10), 0o600); err != nil {
				t.Fatal(err)
			}
		}, want: ErrCorrupt},
		{name: "newer schema", make: writeNewerSchema, want: ErrNewerSchema},
		{name: "path is a directory", isDir: true, make: func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}, want: ErrReadOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			tc.make(t, path)
			before := snapshot(t, path, tc.isDir)
			db, err := Open(path, Options{})
			if err == nil {
				t.Fatal(errors.Join(errors.New("Open succeeded"), db.Close()))
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("got %q, want it to name %s", err, path)
			}
			if after := snapshot(t, path, tc.isDir); after != before {
				t.Errorf("file changed: got %s, want %s", after, before)
			}
			if _, serr := os.Stat(path + lockHolderSuffix); !errors.Is(serr, os.ErrNotExist) {
				t.Errorf("lock-holder sidecar: got %v, want none after a failed Open", serr)
			}
		})
	}
}

// snapshot is a file's content hash and modification time.
func snapshot(t *testing.T, path string, isDir bool) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if isDir {
		return fi.ModTime().String()
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("sha256 %x, mtime %s", sha256.Sum256(b), fi.ModTime())
}

// TestOpenParentIsFile: a file where the state directory should be is
// reported as ErrReadOnly.
func TestOpenParentIsFile(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "state")
	if err := os.WriteFile(parent, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(parent, FileName), Options{})
	if !errors.Is(err, ErrReadOnly) {
		t.Errorf("got %v, want ErrReadOnly", err)
	}
}

// TestOpenReadOnlyPermissions is ErrReadOnly by chmod. Root ignores file
// modes, so as root it skips; TestOpenReadOnlyMount covers root.
func TestOpenReadOnlyPermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("skipped: root ignores chmod; TestOpenReadOnlyMount covers read-only as root")
	}
	for _, tc := range []struct {
		name   string
		target func(dir, path string) string // what to chmod
		mode   os.FileMode
		create bool
	}{
		{name: "read-only file", target: func(_, path string) string { return path }, mode: 0o400, create: true},
		{name: "read-only dir, new file", target: func(dir, _ string) string { return dir }, mode: 0o500},
		{name: "read-only dir, existing file", target: func(dir, _ string) string { return dir }, mode: 0o500, create: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if tc.create {
				db, err := Open(path, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
			}
			target := tc.target(dir, path)
			if err := os.Chmod(target, tc.mode); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if err := os.Chmod(target, 0o700); err != nil {
					t.Error(err)
				}
			})
			db, err := Open(path, Options{})
			if err == nil {
				t.Fatal(errors.Join(errors.New("Open succeeded"), db.Close()))
			}
			if !errors.Is(err, ErrReadOnly) {
				t.Errorf("got %v, want ErrReadOnly", err)
			}
		})
	}
}

// TestCheck: a fresh file passes bbolt's consistency check (the crash test
// runs it after every kill).
func TestCheck(t *testing.T) {
	db := openTest(t, Options{})
	if err := db.Check(); err != nil {
		t.Fatalf("fresh database: got %v, want nil", err)
	}
}

// TestErrorMessagesSayWhatToDo: every sentinel is one sentence with advice.
func TestErrorMessagesSayWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"ErrLocked", ErrLocked, "--state-dir"},
		{"ErrNewerSchema", ErrNewerSchema, "upgrade vouch"},
		{"ErrCorrupt", ErrCorrupt, "move it aside"},
		{"ErrReadOnly", ErrReadOnly, "permissions"},
		{"ErrKeyringTimeout", ErrKeyringTimeout, "VOUCH_KEYRING_BACKEND=file"},
		{"ErrKeyringUnavailable", ErrKeyringUnavailable, "VOUCH_KEYRING_BACKEND"},
		{"ErrKeyringLocked", ErrKeyringLocked, "unlock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("got %q, want advice containing %q", msg, tc.want)
			}
			if strings.Count(msg, ". ") > 0 || strings.HasSuffix(msg, ".") || bytes.ContainsRune([]byte(msg), '\n') {
				t.Errorf("got %q, want one sentence without a final period", msg)
			}
		})
	}
}
