package store

import (
	"encoding/binary"
	"fmt"

	"go.etcd.io/bbolt"
)

// Bucket names. Each top-level bucket is created by a migration.
var (
	bucketMeta          = []byte("meta")
	bucketSettings      = []byte("settings")
	bucketProviders     = []byte("providers")
	bucketConversations = []byte("conversations")
	// bucketConvByUpdated indexes conversations by recency:
	// key = big-endian Updated (unix ns) + ID, value empty.
	bucketConvByUpdated = []byte("conversations_by_updated")
	// bucketMessages holds one nested bucket per conversation ID whose keys
	// are big-endian sequence numbers.
	bucketMessages = []byte("messages")
	// bucketStreaming indexes messages whose Status is streaming:
	// key = conversation ID + big-endian seq, value empty. Open turns every
	// entry into a partial message without scanning the transcripts.
	bucketStreaming = []byte("streaming")

	// bucketMCPServers holds MCP server configurations by server ID (JSON
	// MCPServer); never a secret (SPEC B1).
	bucketMCPServers = []byte("mcp_servers")
	// bucketMCPCatalogs holds each server's cached tool catalog by server ID,
	// as the bytes the mcpclient package encodes (SPEC B5).
	bucketMCPCatalogs = []byte("mcp_catalogs")
	// bucketToolsOff records tools a person turned off for a conversation:
	// key = conversation ID + 0x00 + tool identity, value empty.
	bucketToolsOff = []byte("tools_off")

	// Skill catalog (schema 4; see skills.go): bucketSkillBlobs holds file
	// contents by hex sha256 (deduplicated); bucketSkills holds each skill's
	// versions by name.
	bucketSkillBlobs = []byte("skill_blobs")
	bucketSkills     = []byte("skills")

	// Workflows (schema 5; see profiles.go and runs.go): definitions and
	// profiles with every revision, run history, and the schedule log.
	bucketDefinitions = []byte("definitions")
	bucketProfiles    = []byte("profiles")
	bucketRuns        = []byte("runs")
	bucketRunEvents   = []byte("run_events")
	bucketScheduleLog = []byte("schedule_log")

	keySchemaVersion = []byte("schema_version")
)

// migration moves the schema from one version to the next inside one
// read-write transaction.
type migration struct {
	name string
	up   func(tx *bbolt.Tx) error
}

// migrations[i] moves a database from schema version i to i+1; the current
// version is len(migrations). The table is append-only: never edit, reorder
// or remove an entry that has shipped, add a new one.
var migrations = []migration{
	{name: "create buckets", up: func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketMeta, bucketSettings, bucketProviders,
			bucketConversations, bucketConvByUpdated, bucketMessages, bucketStreaming} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	}},
	{name: "mcp servers, catalogs and tool selection", up: func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketMCPServers, bucketMCPCatalogs, bucketToolsOff} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	}},
	{name: "policy rules and decision audit", up: func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketPolicyRules, bucketPolicyDecisions, bucketPolicyByCorrelation} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	}},
	{name: "skill catalog", up: func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketSkillBlobs, bucketSkills)
	}},
	{name: "definitions, profiles, runs and schedules", up: func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketDefinitions, bucketProfiles, bucketRuns, bucketRunEvents, bucketScheduleLog)
	}},
	{name: "skills served by MCP servers", up: func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketServerSkills, bucketServerSkillBlobs, bucketServerSkillSettings)
	}},
	{name: "pin policy rules to the cached tool definitions", up: pinRulesToCatalogs},
	{name: "count the messages of each conversation as a person does", up: countConversations},
}

func createBuckets(tx *bbolt.Tx, names ...[]byte) error {
	for _, name := range names {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int { return len(migrations) }

// schemaVersion reads the stored version; a file without a meta bucket is
// version 0 (new).
func (db *DB) schemaVersion() (int, error) {
	var v int
	err := db.view(func(tx *bbolt.Tx) error {
		var err error
		v, err = readSchemaVersion(tx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", db.path, err)
	}
	return v, nil
}

func readSchemaVersion(tx *bbolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	raw := meta.Get(keySchemaVersion)
	if raw == nil {
		return 0, nil
	}
	if len(raw) != 8 {
		return 0, fmt.Errorf("%w (schema_version has %d bytes, want 8)", ErrCorrupt, len(raw))
	}
	return int(binary.BigEndian.Uint64(raw)), nil
}

func writeSchemaVersion(tx *bbolt.Tx, v int) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketMeta, err)
	}
	return meta.Put(keySchemaVersion, binary.BigEndian.AppendUint64(nil, uint64(v)))
}

// migrate applies table[v:] to a database at version v, one transaction per
// step, so a failure (or a kill) leaves the file at the last completed
// version. A database at version 0 — a new file — is migrated in one
// transaction instead: a failure or a kill leaves it as it was, and each
// commit is two writes to the disk, eight of which took 2–3 ms of the
// first launch (docs/BENCHMARKS.md, "Speed, round three"). A database
// newer than the table is left untouched.
func (db *DB) migrate(table []migration) error {
	v, err := db.schemaVersion()
	if err != nil {
		return err
	}
	if v > len(table) {
		return fmt.Errorf("open %s (schema %d, this vouch knows up to %d): %w",
			db.path, v, len(table), ErrNewerSchema)
	}
	if v == 0 && len(table) > 0 {
		err := db.update(func(tx *bbolt.Tx) error {
			for i, step := range table {
				if err := step.up(tx); err != nil {
					return fmt.Errorf("schema %d (%s): %w", i+1, step.name, err)
				}
			}
			return writeSchemaVersion(tx, len(table))
		})
		if err != nil {
			return fmt.Errorf("create %s: %w", db.path, err)
		}
		return nil
	}
	for i := v; i < len(table); i++ {
		step := table[i]
		err := db.update(func(tx *bbolt.Tx) error {
			if err := step.up(tx); err != nil {
				return err
			}
			return writeSchemaVersion(tx, i+1)
		})
		if err != nil {
			return fmt.Errorf("migrate %s to schema %d (%s): %w", db.path, i+1, step.name, err)
		}
	}
	return nil
}

// recoverStreaming marks every message still streaming (its writer died
// with the process) as partial, so an interrupted reply never looks
// complete (SPEC A5, K3). It costs one read when there is nothing to do.
func (db *DB) recoverStreaming() error {
	var pending bool
	err := db.view(func(tx *bbolt.Tx) error {
		k, _ := tx.Bucket(bucketStreaming).Cursor().First()
		pending = k != nil
		return nil
	})
	if err != nil || !pending {
		return err
	}
	err = db.update(func(tx *bbolt.Tx) error {
		idx := tx.Bucket(bucketStreaming)
		var keys [][]byte
		err := idx.ForEach(func(k, _ []byte) error {
			keys = append(keys, append([]byte(nil), k...))
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			if len(k) <= 8 {
				return fmt.Errorf("%w (streaming index key of %d bytes)", ErrCorrupt, len(k))
			}
			convID, seq := string(k[:len(k)-8]), binary.BigEndian.Uint64(k[len(k)-8:])
			m, ok, err := getMessage(tx, convID, seq)
			if err != nil {
				return err
			}
			if !ok { // the index outlived its message: drop the entry
				if err := idx.Delete(k); err != nil {
					return err
				}
				continue
			}
			m.Status = StatusPartial
			if err := putMessage(tx, m); err != nil { // also clears the index entry
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("open %s: mark interrupted messages partial: %w", db.path, err)
	}
	return nil
}
