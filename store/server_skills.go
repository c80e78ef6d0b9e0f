package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// Skills served by MCP servers (SPEC I; schema 6). The records are the
// bytes the mcpclient package encodes — per (server identity, skill URI) the
// approvals with their resource sets, the revocation and the findings — so
// the store owns persistence, not the rules. Pinned content lives in its own
// content-addressed bucket, apart from the local skill catalog's blobs:
// content that arrived over MCP never becomes a local skill by being stored.
var (
	// bucketServerSkills holds records by server ID + 0x00 + skill URI.
	bucketServerSkills = []byte("server_skills")
	// bucketServerSkillBlobs holds pinned file contents by hex sha256.
	bucketServerSkillBlobs = []byte("server_skill_blobs")
	// bucketServerSkillSettings holds per-server settings (JSON
	// ServerSkillSettings) by server ID.
	bucketServerSkillSettings = []byte("server_skill_settings")
)

// ServerSkillSettings are the person's per-server choices for skills the
// server serves.
type ServerSkillSettings struct {
	// AllowDynamic lets skills whose resources are "dynamic" (no digests,
	// so no content binding) be loaded, each load still asking the person.
	AllowDynamic bool `json:"allow_dynamic"`
}

func serverSkillKey(serverID, uri string) ([]byte, error) {
	if serverID == "" || uri == "" || bytes.IndexByte([]byte(serverID), 0) >= 0 {
		return nil, fmt.Errorf("server skill without a server ID or URI: %w", ErrInvalid)
	}
	return append(append([]byte(serverID), 0), uri...), nil
}

// ServerSkillRecord returns the record of one server skill, or nil when
// there is none.
func (db *DB) ServerSkillRecord(serverID, uri string) ([]byte, error) {
	key, err := serverSkillKey(serverID, uri)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = db.view(func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bucketServerSkills).Get(key); v != nil {
			out = bytes.Clone(v)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the record of server skill %s: %w", uri, err)
	}
	return out, nil
}

// UpdateServerSkillRecord replaces the record of one server skill with what
// fn returns for the current one (nil when there is none), in one
// transaction, so concurrent updates never lose each other's changes. fn
// returning nil bytes deletes the record; an error from fn writes nothing.
func (db *DB) UpdateServerSkillRecord(serverID, uri string, fn func(old []byte) ([]byte, error)) error {
	key, err := serverSkillKey(serverID, uri)
	if err != nil {
		return err
	}
	err = db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketServerSkills)
		var old []byte
		if v := b.Get(key); v != nil {
			old = bytes.Clone(v)
		}
		rec, err := fn(old)
		if err != nil {
			return err
		}
		if rec == nil {
			return b.Delete(key)
		}
		return b.Put(key, rec)
	})
	if err != nil {
		return fmt.Errorf("save the record of server skill %s: %w", uri, err)
	}
	return nil
}

// ServerSkillRecords returns every record of one server by skill URI.
func (db *DB) ServerSkillRecords(serverID string) (map[string][]byte, error) {
	prefix, err := serverSkillKey(serverID, "-")
	if err != nil {
		return nil, err
	}
	prefix = prefix[:len(prefix)-1]
	out := map[string][]byte{}
	err = db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketServerSkills).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			out[string(k[len(prefix):])] = bytes.Clone(v)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the skills of server %s: %w", serverID, err)
	}
	return out, nil
}

// DeleteServerSkills forgets every record and setting of one server (when
// the person removes it) and drops pinned content no other record names.
// names lists the blob digests a record refers to; it is the mcpclient
// decoder, since records are opaque here.
func (db *DB) DeleteServerSkills(serverID string, names func(rec []byte) ([]string, error)) error {
	prefix, err := serverSkillKey(serverID, "-")
	if err != nil {
		return err
	}
	prefix = prefix[:len(prefix)-1]
	err = db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketServerSkills)
		var doomed [][]byte
		keep := map[string]bool{}
		candidates := map[string]bool{}
		err := b.ForEach(func(k, v []byte) error {
			shas, err := names(v)
			if err != nil {
				return fmt.Errorf("server skill record %q: %w", k, ErrCorrupt)
			}
			mine := bytes.HasPrefix(k, prefix)
			if mine {
				doomed = append(doomed, bytes.Clone(k))
			}
			for _, s := range shas {
				if mine {
					candidates[s] = true
				} else {
					keep[s] = true
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range doomed {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		blobs := tx.Bucket(bucketServerSkillBlobs)
		for s := range candidates {
			if !keep[s] {
				if err := blobs.Delete([]byte(s)); err != nil {
					return err
				}
			}
		}
		return tx.Bucket(bucketServerSkillSettings).Delete([]byte(serverID))
	})
	if err != nil {
		return fmt.Errorf("forget the skills of server %s: %w", serverID, err)
	}
	return nil
}

// PutServerSkillBlob pins one verified file and returns its hex sha256.
// Blobs are content-addressed and never modified in place.
func (db *DB) PutServerSkillBlob(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:])
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketServerSkillBlobs)
		if b.Get([]byte(name)) != nil {
			return nil
		}
		return b.Put([]byte(name), data)
	})
	if err != nil {
		return "", fmt.Errorf("pin a server skill file: %w", err)
	}
	return name, nil
}

// ServerSkillBlob returns the pinned file with the hex sha256, re-hashed on
// every read: a stored file that no longer matches its name is ErrCorrupt,
// never returned. ok is false when nothing is pinned under that digest.
func (db *DB) ServerSkillBlob(sha string) (data []byte, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bucketServerSkillBlobs).Get([]byte(sha)); v != nil {
			data, ok = bytes.Clone(v), true
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("read a pinned server skill file: %w", err)
	}
	if ok {
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != sha {
			return nil, false, fmt.Errorf("pinned server skill file %s no longer matches its digest: %w", sha, ErrCorrupt)
		}
	}
	return data, ok, nil
}

// ServerSkillSettings returns a server's skill settings (the zero value
// when none were saved).
func (db *DB) ServerSkillSettings(serverID string) (ServerSkillSettings, error) {
	var s ServerSkillSettings
	err := db.view(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketServerSkillSettings).Get([]byte(serverID))
		if v == nil {
			return nil
		}
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("server skill settings %s: %w", serverID, ErrCorrupt)
		}
		return nil
	})
	if err != nil {
		return ServerSkillSettings{}, fmt.Errorf("read the skill settings of server %s: %w", serverID, err)
	}
	return s, nil
}

// PutServerSkillSettings saves a server's skill settings.
func (db *DB) PutServerSkillSettings(serverID string, s ServerSkillSettings) error {
	if serverID == "" {
		return fmt.Errorf("server skill settings without a server ID: %w", ErrInvalid)
	}
	val, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode the skill settings of server %s: %w", serverID, err)
	}
	err = db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketServerSkillSettings).Put([]byte(serverID), val)
	})
	if err != nil {
		return fmt.Errorf("save the skill settings of server %s: %w", serverID, err)
	}
	return nil
}
