package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockHolderSuffix names the sidecar Open writes next to the database once
// it holds the file lock, so a second instance and `vouch doctor` can say
// who holds it. bbolt's flock itself carries no owner.
const lockHolderSuffix = ".lock-holder"

type lockHolderRecord struct {
	PID   int       `json:"pid"`
	Since time.Time `json:"since"`
}

// LockHolder reports the process that holds the database at path open, as
// recorded in its sidecar. ok is false when there is no sidecar, it does not
// parse, or the process it names is gone (a stale sidecar from a crash).
func LockHolder(path string) (pid int, since time.Time, ok bool) {
	rec, err := readLockHolder(path)
	if err != nil || rec.PID <= 0 || !processAlive(rec.PID) {
		return 0, time.Time{}, false
	}
	return rec.PID, rec.Since, true
}

func readLockHolder(path string) (lockHolderRecord, error) {
	var rec lockHolderRecord
	b, err := os.ReadFile(path + lockHolderSuffix)
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, fmt.Errorf("read %s%s: %w", path, lockHolderSuffix, err)
	}
	return rec, nil
}

// writeLockHolder replaces the sidecar atomically (temp file, rename), so a
// reader never sees half a record.
func writeLockHolder(path string, pid int, since time.Time) error {
	b, err := json.Marshal(lockHolderRecord{PID: pid, Since: since.Round(0)})
	if err != nil {
		return fmt.Errorf("encode lock holder: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+lockHolderSuffix+".*")
	if err != nil {
		return fmt.Errorf("write lock holder: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return errors.Join(fmt.Errorf("write lock holder: %w", err), removeIfExists(f.Name()))
	}
	if err := os.Rename(f.Name(), path+lockHolderSuffix); err != nil {
		return errors.Join(fmt.Errorf("write lock holder: %w", err), removeIfExists(f.Name()))
	}
	return nil
}

// removeLockHolder deletes the sidecar if it still names pid.
func removeLockHolder(path string, pid int) error {
	rec, err := readLockHolder(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && rec.PID != pid) {
		return nil
	}
	// A sidecar that does not parse is ours to replace as well.
	return removeIfExists(path + lockHolderSuffix)
}

func removeIfExists(name string) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	return nil
}
