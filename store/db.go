package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FileName is the database's file name inside the state directory.
const FileName = "vouch.db"

// DefaultOpenTimeout is how long Open waits for another process's file lock
// before it returns ErrLocked.
const DefaultOpenTimeout = time.Second

// Options configures Open. The zero value is ready to use.
type Options struct {
	// Timeout bounds the wait for the file lock; zero means
	// DefaultOpenTimeout. bbolt waits forever without one.
	Timeout time.Duration

	// Now is the clock used for Created and Updated times; nil means
	// time.Now. Tests pass a fixed clock.
	Now func() time.Time
}

// DB is vouch's open database. Its methods are safe for concurrent use.
type DB struct {
	bolt *bbolt.DB
	path string
	now  func() time.Time

	// commits counts successful write transactions; tests read it to prove
	// that streaming writes are batched.
	commits atomic.Uint64
}

// DefaultStateDir returns $XDG_STATE_HOME/vouch, or ~/.local/state/vouch when
// XDG_STATE_HOME is unset or not absolute (as the XDG spec requires).
func DefaultStateDir() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "vouch"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the state directory: %w; pass --state-dir", err)
	}
	return filepath.Join(home, ".local", "state", "vouch"), nil
}

// Open opens (creating when missing) the database at path, applies pending
// migrations, and marks messages left streaming by a crashed run as partial.
//
// It never waits on the file lock longer than opts.Timeout. Its errors wrap
// ErrLocked, ErrNewerSchema, ErrCorrupt or ErrReadOnly where they apply.
// Parent directories are created 0700 and the file 0600.
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultOpenTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, classifyOpenError(path, err)
	}
	bdb, err := openBolt(path, opts.Timeout)
	if err != nil {
		return nil, classifyOpenError(path, err)
	}
	db := &DB{bolt: bdb, path: path, now: opts.Now}
	if err := db.prepare(); err != nil {
		return nil, errors.Join(err, closeQuietly(bdb, path))
	}
	if err := writeLockHolder(path, os.Getpid(), time.Now()); err != nil {
		return nil, errors.Join(classifyOpenError(path, err), closeQuietly(bdb, path))
	}
	return db, nil
}

// openBolt opens the file with a lock timeout, turning a bbolt panic (or
// a memory fault on a mangled mapping) into an error.
func openBolt(path string, timeout time.Duration) (bdb *bbolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			bdb, err = nil, fmt.Errorf("%w: bbolt panicked: %v", berrors.ErrInvalid, r)
		}
	}()
	return bbolt.Open(path, 0o600, &bbolt.Options{Timeout: timeout})
}

// prepare runs migrations and crash recovery (streaming messages, runs); a panic inside bbolt while
// reading a damaged file becomes ErrCorrupt.
func (db *DB) prepare() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = damaged(db.path, r)
		}
	}()
	if err := db.migrate(migrations); err != nil {
		return err
	}
	if err := db.recoverStreaming(); err != nil {
		return err
	}
	return db.recoverRuns()
}

func closeQuietly(bdb *bbolt.DB, path string) error {
	if err := bdb.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// classifyOpenError maps the causes Open can meet to the package's sentinels,
// keeping the cause in the chain.
func classifyOpenError(path string, err error) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		if pid, since, ok := LockHolder(path); ok {
			return fmt.Errorf("open %s (held by pid %d since %s): %w",
				path, pid, since.Format(time.DateTime), ErrLocked)
		}
		return fmt.Errorf("open %s: %w", path, ErrLocked)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum),
		errors.Is(err, berrors.ErrVersionMismatch):
		return fmt.Errorf("open %s: %w (%w)", path, ErrCorrupt, err)
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS),
		errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("open %s: %w (%w)", path, ErrReadOnly, err)
	}
	return fmt.Errorf("open %s: %w", path, err)
}

// Path returns the database file's path as given to Open.
func (db *DB) Path() string { return db.path }

// Close releases the file lock and removes the lock-holder sidecar. Calling
// it again is harmless.
func (db *DB) Close() error {
	errHolder := removeLockHolder(db.path, os.Getpid())
	if err := db.bolt.Close(); err != nil {
		return errors.Join(fmt.Errorf("close %s: %w", db.path, err), errHolder)
	}
	return errHolder
}

// Check walks every page of the file and reports the first inconsistency as
// ErrCorrupt. It reads the whole file: meant for `vouch doctor` and tests,
// not for start-up.
func (db *DB) Check() error {
	return db.view(func(tx *bbolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			return fmt.Errorf("check %s: %w (%w)", db.path, ErrCorrupt, errors.Join(errs...))
		}
		return nil
	})
}

// update runs fn in one managed read-write transaction (one commit, one
// fsync) and counts the commit. A panic inside it (bbolt meeting a damaged
// page) is the damaged sentence, never a crash (see guard).
func (db *DB) update(fn func(*bbolt.Tx) error) (err error) {
	defer db.guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	if err := db.bolt.Update(fn); err != nil {
		return err
	}
	db.commits.Add(1)
	return nil
}

// view runs fn in one managed read-only transaction. fn must copy every
// byte it keeps: bbolt's slices die with the transaction. A panic inside
// it is the damaged sentence (see guard).
func (db *DB) view(fn func(*bbolt.Tx) error) (err error) {
	defer db.guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return db.bolt.View(fn)
}
