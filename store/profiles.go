package store

import (
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"

	"vouch/workflow"
)

// Profiles (SPEC H2) are kept with every revision, like definitions: a save
// validates the profile with workflow.Profile.Validate and appends the next
// revision; nothing rewrites one, so a run that froze revision n can always
// read it back (SPEC H4, H7). Whether the definition, tools and skills a
// profile names exist is the caller's check: the store keeps what it is
// given once it is well formed.

// PutProfile validates p and saves it as the next revision of p.Name,
// stamped with that revision and the store's clock, and returns the record
// as saved. p.Revision and p.Updated are ignored.
func (db *DB) PutProfile(p workflow.Profile) (workflow.Profile, error) {
	if err := p.Validate(); err != nil {
		return workflow.Profile{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	p.Updated = db.now().UTC()
	err := db.update(func(tx *bbolt.Tx) error {
		_, err := appendRevision(tx.Bucket(bucketProfiles), p.Name, func(rev int) ([]byte, error) {
			p.Revision = rev
			v, err := json.Marshal(p)
			if err != nil {
				return nil, fmt.Errorf("encode profile %q: %w", p.Name, err)
			}
			return v, nil
		})
		return err
	})
	if err != nil {
		return workflow.Profile{}, fmt.Errorf("save profile %q: %w", p.Name, err)
	}
	return p, nil
}

// Profile returns revision rev of the named profile (0: the latest);
// ErrNotFound when there is none.
func (db *DB) Profile(name string, rev int) (workflow.Profile, error) {
	var p workflow.Profile
	err := db.view(func(tx *bbolt.Tx) error {
		v, err := revision(tx.Bucket(bucketProfiles), "profile", name, rev)
		if err != nil {
			return err
		}
		return decodeProfile(v, &p)
	})
	if err != nil {
		return workflow.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	return p, nil
}

// Profiles returns the latest revision of every profile, by name.
func (db *DB) Profiles() ([]workflow.Profile, error) {
	var out []workflow.Profile
	err := db.view(func(tx *bbolt.Tx) error {
		return latestRevisions(tx.Bucket(bucketProfiles), func(_, v []byte) error {
			var p workflow.Profile
			if err := decodeProfile(v, &p); err != nil {
				return err
			}
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// ProfileRevisions returns every revision of the named profile, oldest
// first.
func (db *DB) ProfileRevisions(name string) ([]workflow.Profile, error) {
	var out []workflow.Profile
	err := db.view(func(tx *bbolt.Tx) error {
		return allRevisions(tx.Bucket(bucketProfiles), "profile", name, func(v []byte) error {
			var p workflow.Profile
			if err := decodeProfile(v, &p); err != nil {
				return err
			}
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list revisions of profile %q: %w", name, err)
	}
	return out, nil
}

// DeleteProfile removes every revision of the named profile; ErrNotFound
// when there is none. Runs that used it keep their frozen copy in history.
func (db *DB) DeleteProfile(name string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketProfiles)
		if b.Bucket([]byte(name)) == nil {
			return fmt.Errorf("profile %q: %w", name, ErrNotFound)
		}
		return b.DeleteBucket([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("remove profile: %w", err)
	}
	return nil
}

func decodeProfile(v []byte, p *workflow.Profile) error {
	if err := json.Unmarshal(v, p); err != nil {
		return fmt.Errorf("profile record: %w (%w)", ErrCorrupt, err)
	}
	return nil
}
