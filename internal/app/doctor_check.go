package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"vouch/store"
)

// CheckDatabase is `vouch doctor --check` (SPEC K1, K3): it opens the
// database of stateDir and runs the store's DeepCheck — every bucket
// walked, every content-addressed file re-hashed, bbolt's page check. A
// file too damaged to open is a report with that one problem, not an
// error; the error is for a check that could not run (no database yet, a
// lock held by another vouch).
func CheckDatabase(stateDir string) (store.CheckReport, error) {
	path := filepath.Join(stateDir, store.FileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return store.CheckReport{}, Errorf(Failure, "there is no database at %s yet; nothing to check", path)
	}
	db, err := store.Open(path, store.Options{})
	if errors.Is(err, store.ErrCorrupt) {
		return store.CheckReport{Path: path, Problems: []string{fmt.Sprintf("the file cannot be opened: %v", err)}}, nil
	}
	if err != nil {
		return store.CheckReport{}, Wrap(Failure, err)
	}
	rep, err := db.DeepCheck()
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close the database after the check: %w", cerr)
	}
	if err != nil {
		return store.CheckReport{}, Wrap(Failure, err)
	}
	return rep, nil
}

// CheckDatabase is CheckDatabase run in the session that holds the
// database (SPEC K5): the same check on its open database.
func (a *App) CheckDatabase() (store.CheckReport, error) {
	rep, err := a.db.DeepCheck()
	if err != nil {
		return store.CheckReport{}, Wrap(Failure, err)
	}
	return rep, nil
}
