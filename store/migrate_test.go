package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// openAtVersion builds a database at schema version v by applying only
// migrations[:v], the state an older vouch would have left.
// openBefore is openAtVersion at the schema just before the migration
// named, failing the test when the table has none of that name.
func openBefore(t *testing.T, path, name string) *DB {
	t.Helper()
	before := slices.IndexFunc(migrations, func(m migration) bool { return m.name == name })
	if before < 0 {
		t.Fatalf("no migration %q in the table", name)
	}
	return openAtVersion(t, path, before)
}

func openAtVersion(t *testing.T, path string, v int) *DB {
	t.Helper()
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db := &DB{bolt: bdb, path: path, now: stepClock(time.Second)}
	if err := db.migrate(migrations[:v]); err != nil {
		t.Fatal(err)
	}
	return db
}

// reopen closes a database built by openAtVersion and opens it with Open,
// as a newer vouch would; the test closes it at the end.
func reopen(t *testing.T, old *DB) *DB {
	t.Helper()
	if err := old.bolt.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(old.path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// TestMigrateFromOlderVersions: a database at every earlier version,
// N-1 included, opens, reaches SchemaVersion() and keeps its records.
func TestMigrateFromOlderVersions(t *testing.T) {
	for v := 0; v < SchemaVersion(); v++ {
		t.Run(fmt.Sprintf("from %d to %d", v, SchemaVersion()), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			old := openAtVersion(t, path, v)
			wantSetting := v >= 1 // settings exist from version 1 on
			if wantSetting {
				if err := old.SetSetting("theme", "dark"); err != nil {
					t.Fatal(err)
				}
			}
			db := reopen(t, old)
			got, err := db.schemaVersion()
			if err != nil || got != SchemaVersion() {
				t.Errorf("schema version = %d, %v; want %d", got, err, SchemaVersion())
			}
			if wantSetting {
				if val, ok, err := db.Setting("theme"); err != nil || !ok || val != "dark" {
					t.Errorf("Setting(theme) = %q, %v, %v; want dark, true, nil", val, ok, err)
				}
			}
		})
	}
}

// TestMigrateNewerIsUntouched: covered byte for byte in TestOpenRejects;
// here, that the error names both versions.
func TestMigrateNewerSchemaMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	writeNewerSchema(t, path)
	_, err := Open(path, Options{})
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("got %v, want ErrNewerSchema", err)
	}
	want := fmt.Sprintf("schema %d, this vouch knows up to %d", SchemaVersion()+1, SchemaVersion())
	if !strings.Contains(err.Error(), want) {
		t.Errorf("got %q, want it to contain %q", err, want)
	}
}

// TestMigrateRunner drives the runner with a synthetic table: steps run in
// order from the stored version, one commit each, and a failing step leaves
// the version at the last step that succeeded. A new file (version 0) is
// made in one commit, and a failing step leaves it new: none of its
// steps' buckets exist (issue 29 item 1).
func TestMigrateRunner(t *testing.T) {
	errBoom := errors.New("boom")
	for _, tc := range []struct {
		name        string
		start       int
		failAt      int // 1-based step that fails; 0: none
		wantRan     []int
		wantVersion int
		wantCommits uint64
		wantErr     error
	}{
		{name: "fresh file runs every step in one commit", start: 0, wantRan: []int{1, 2, 3}, wantVersion: 3, wantCommits: 1},
		{name: "N-2 runs the last two steps", start: 1, wantRan: []int{2, 3}, wantVersion: 3, wantCommits: 2},
		{name: "N-1 runs the last step", start: 2, wantRan: []int{3}, wantVersion: 3, wantCommits: 1},
		{name: "current runs nothing", start: 3, wantRan: nil, wantVersion: 3},
		{name: "newer is refused", start: 4, wantRan: nil, wantVersion: 4, wantErr: ErrNewerSchema},
		{name: "failure stops at the last good version", start: 1, failAt: 3, wantRan: []int{2, 3}, wantVersion: 2, wantErr: errBoom},
		{name: "failure leaves a fresh file fresh", start: 0, failAt: 2, wantRan: []int{1, 2}, wantVersion: 0, wantErr: errBoom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t, Options{})
			if err := db.update(func(tx *bbolt.Tx) error { return writeSchemaVersion(tx, tc.start) }); err != nil {
				t.Fatal(err)
			}
			var ran []int
			table := make([]migration, 3)
			for i := range table {
				step := i + 1
				table[i] = migration{name: fmt.Sprint("step ", step), up: func(tx *bbolt.Tx) error {
					ran = append(ran, step)
					if step == tc.failAt {
						return errBoom
					}
					_, err := tx.CreateBucketIfNotExists([]byte(fmt.Sprint("bucket-", step)))
					return err
				}}
			}
			commits := db.commits.Load()
			err := db.migrate(table)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("migrate: got %v, want %v", err, tc.wantErr)
			}
			if !slices.Equal(ran, tc.wantRan) {
				t.Errorf("ran steps %v, want %v", ran, tc.wantRan)
			}
			if got := db.commits.Load() - commits; tc.failAt == 0 && got != tc.wantCommits {
				t.Errorf("got %d commits, want %d", got, tc.wantCommits)
			}
			if got, err := db.schemaVersion(); err != nil || got != tc.wantVersion {
				t.Errorf("version = %d, %v; want %d", got, err, tc.wantVersion)
			}
			if tc.failAt > 0 {
				err := db.view(func(tx *bbolt.Tx) error {
					for step := tc.wantVersion + 1; step <= tc.failAt; step++ {
						if tx.Bucket([]byte(fmt.Sprint("bucket-", step))) != nil {
							return fmt.Errorf("the bucket of step %d, after the last good version, exists", step)
						}
					}
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
}
