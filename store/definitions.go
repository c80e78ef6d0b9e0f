package store

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"

	"vouch/workflow"
)

// Definitions (SPEC H2, G5) are kept with every revision. The store
// validates each with workflow.Definition.Validate before writing; it never
// overwrites a revision.

// PutDefinition validates d and saves it as the next revision of d.Name,
// stamped with that revision number, which it returns with the record.
// d.Revision is ignored. Whether a save may replace an edited definition
// (SPEC G5) is the caller's decision; see DefinitionConflict.
func (db *DB) PutDefinition(d workflow.Definition) (workflow.Definition, error) {
	err := db.update(func(tx *bbolt.Tx) error {
		var err error
		d, err = putDefinition(tx, d)
		return err
	})
	if err != nil {
		return workflow.Definition{}, fmt.Errorf("save definition %q: %w", d.Name, err)
	}
	return d, nil
}

// putDefinition validates d and appends it as the next revision of d.Name
// inside tx, returning it stamped with that revision. PutDefinition and
// InstallSkill (one transaction with the skill) share it.
func putDefinition(tx *bbolt.Tx, d workflow.Definition) (workflow.Definition, error) {
	if err := d.Validate(); err != nil {
		return workflow.Definition{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	_, err := appendRevision(tx.Bucket(bucketDefinitions), d.Name, func(rev int) ([]byte, error) {
		d.Revision = rev
		v, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("encode definition %q: %w", d.Name, err)
		}
		return v, nil
	})
	if err != nil {
		return workflow.Definition{}, err
	}
	return d, nil
}

// Definition returns revision rev of the named definition (0: the latest);
// ErrNotFound when there is none.
func (db *DB) Definition(name string, rev int) (workflow.Definition, error) {
	var d workflow.Definition
	err := db.view(func(tx *bbolt.Tx) error {
		v, err := revision(tx.Bucket(bucketDefinitions), "definition", name, rev)
		if err != nil {
			return err
		}
		return decodeDefinition(v, &d)
	})
	if err != nil {
		return workflow.Definition{}, fmt.Errorf("read definition: %w", err)
	}
	return d, nil
}

// Definitions returns the latest revision of every definition, by name.
func (db *DB) Definitions() ([]workflow.Definition, error) {
	var out []workflow.Definition
	err := db.view(func(tx *bbolt.Tx) error {
		return latestRevisions(tx.Bucket(bucketDefinitions), func(_, v []byte) error {
			var d workflow.Definition
			if err := decodeDefinition(v, &d); err != nil {
				return err
			}
			out = append(out, d)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list definitions: %w", err)
	}
	return out, nil
}

// DefinitionRevisions returns every revision of the named definition,
// oldest first.
func (db *DB) DefinitionRevisions(name string) ([]workflow.Definition, error) {
	var out []workflow.Definition
	err := db.view(func(tx *bbolt.Tx) error {
		return allRevisions(tx.Bucket(bucketDefinitions), "definition", name, func(v []byte) error {
			var d workflow.Definition
			if err := decodeDefinition(v, &d); err != nil {
				return err
			}
			out = append(out, d)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list revisions of definition %q: %w", name, err)
	}
	return out, nil
}

// DeleteDefinition removes every revision of the named definition;
// ErrNotFound when there is none.
func (db *DB) DeleteDefinition(name string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketDefinitions)
		if b.Bucket([]byte(name)) == nil {
			return fmt.Errorf("definition %q: %w", name, ErrNotFound)
		}
		return b.DeleteBucket([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("remove definition: %w", err)
	}
	return nil
}

// DefinitionConflict says what saving an imported definition named name
// would collide with (SPEC G5): "" when no definition has that name,
// "person" when the person built it or edited it (never overwritten: the
// import must be renamed or saved as a new revision only by the person's
// choice), "package" when an earlier import made it and nobody edited it.
func (db *DB) DefinitionConflict(name string) (string, error) {
	d, err := db.Definition(name, 0)
	switch {
	case err == nil:
		if d.EditedByPerson || d.Origin == "" || d.Origin == "person" {
			return "person", nil
		}
		return "package", nil
	case errors.Is(err, ErrNotFound):
		return "", nil
	default:
		return "", err
	}
}

func decodeDefinition(v []byte, d *workflow.Definition) error {
	if err := json.Unmarshal(v, d); err != nil {
		return fmt.Errorf("definition record: %w (%w)", ErrCorrupt, err)
	}
	return nil
}
