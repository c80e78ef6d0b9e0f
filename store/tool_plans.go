package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// bucketToolPlans keeps what the agent planned of tool definitions (each
// capped schema and its request entry) and each model's calibration
// anchor, so that the first Enter of a new session neither plans every
// schema again nor counts its prompt from scratch (SPEC F1, F4; issue 29
// item 2). Key: the hex digest the agent gives (agent.PlanStore); value:
// the agent's own encoding, which it checks when it reads. Like
// token_counts it is a cache — created by its first write, emptied whole
// when it reaches maxToolPlans entries, ignored by an older vouch — and
// every entry in it can be planned again.
var bucketToolPlans = []byte("tool_plans")

// maxToolPlans bounds the bucket: a capped schema is at most a few KB.
const maxToolPlans = 8192

// ToolPlans returns the kept values of keys; keys without one are absent
// from the map.
func (db *DB) ToolPlans(keys []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	err := db.view(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketToolPlans)
		if b == nil {
			return nil
		}
		for _, k := range keys {
			if k == "" || k[0] == 0 {
				continue
			}
			if v := b.Get([]byte(k)); v != nil {
				out[k] = append([]byte(nil), v...) // bbolt's memory is the transaction's
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read tool plans: %w", err)
	}
	return out, nil
}

// PutToolPlans keeps plans, in one transaction.
func (db *DB) PutToolPlans(plans map[string][]byte) error {
	if len(plans) == 0 {
		return nil
	}
	err := db.update(func(tx *bbolt.Tx) error { return putCached(tx, bucketToolPlans, maxToolPlans, plans) })
	if err != nil {
		return fmt.Errorf("keep tool plans: %w", err)
	}
	return nil
}
