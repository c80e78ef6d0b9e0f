package store

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.etcd.io/bbolt"

	"vouch/workflow"
)

// LockBatch is what applying a lockfile writes (SPEC N2): servers, policy
// rules and skill versions, all or none.
type LockBatch struct {
	Servers []MCPServer
	Rules   []PolicyRule
	Skills  []SkillInstall
}

// SkillInstall is one skill version to install, as InstallSkill takes it.
type SkillInstall struct {
	Version SkillVersion
	Blobs   map[string][]byte
	Defs    []workflow.Definition
}

// ApplyLockBatch writes b in one transaction: on any error nothing is
// written. Every item is checked as PutMCPServer, PutPolicyRule and
// InstallSkill check it. It returns the skill versions as installed.
func (db *DB) ApplyLockBatch(b LockBatch) ([]SkillVersion, error) {
	now := db.timestamp()
	rules := make([][]byte, len(b.Rules))
	for i, r := range b.Rules {
		if r.Identity == "" || r.Class == "" {
			return nil, fmt.Errorf("policy rule without an identity or class: %w", ErrInvalid)
		}
		if r.Updated.IsZero() {
			r.Updated = now
		}
		v, err := encodeRecord(r)
		if err != nil {
			return nil, fmt.Errorf("encode the policy rule for %q: %w", r.Identity, err)
		}
		rules[i] = v
	}
	servers := make([][]byte, len(b.Servers))
	for i := range b.Servers {
		s := &b.Servers[i]
		if s.ID == "" || strings.TrimSpace(s.Name) == "" {
			return nil, fmt.Errorf("MCP server without an ID or name: %w", ErrInvalid)
		}
		if s.Created.IsZero() {
			s.Created = now
		}
		v, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("encode MCP server %q: %w", s.Name, err)
		}
		servers[i] = v
	}
	out := make([]SkillVersion, len(b.Skills))
	for i, k := range b.Skills {
		if err := precheckSkill(k.Version, k.Blobs); err != nil {
			return nil, err
		}
		out[i] = k.Version
		out[i].Installed = now
	}
	err := db.update(func(tx *bbolt.Tx) error {
		sb := tx.Bucket(bucketMCPServers)
		for i, s := range b.Servers {
			err := sb.ForEach(func(k, v []byte) error {
				var other MCPServer
				if err := json.Unmarshal(v, &other); err != nil {
					return fmt.Errorf("MCP server %s: %w", k, ErrCorrupt)
				}
				if other.ID != s.ID && strings.EqualFold(other.Name, s.Name) {
					return fmt.Errorf("MCP server %q: %w", s.Name, ErrDuplicate)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if err := sb.Put([]byte(s.ID), servers[i]); err != nil {
				return err
			}
		}
		for i, r := range b.Rules {
			if err := tx.Bucket(bucketPolicyRules).Put([]byte(r.Identity), rules[i]); err != nil {
				return err
			}
		}
		for i, k := range b.Skills {
			if err := installSkillTx(tx, &out[i], k.Blobs, k.Defs); err != nil {
				return fmt.Errorf("install skill %q: %w", k.Version.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("apply the lockfile: %w", err)
	}
	return out, nil
}
