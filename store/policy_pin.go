package store

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.etcd.io/bbolt"

	"vouch/policy"
)

// pinRulesToCatalogs is the schema 7 migration (SPEC D8): every rule of an
// MCP tool that pins nothing yet is pinned to the tool's definition in the
// server's cached catalog, as vouch last fetched it — the definition the
// person saw when they classified it, as near as this database knows. A
// rule whose server or tool has no cached definition (a rule that
// preceded discovery, a built-in tool) stays unpinned. A cached catalog
// that does not decode is a cache, not a record: its rules stay unpinned
// rather than the database failing to open.
func pinRulesToCatalogs(tx *bbolt.Tx) error {
	rules, cats := tx.Bucket(bucketPolicyRules), tx.Bucket(bucketMCPCatalogs)
	if rules == nil || cats == nil {
		return fmt.Errorf("%w (the policy or catalog bucket is missing)", ErrCorrupt)
	}
	type update struct {
		key []byte
		val []byte
	}
	var updates []update
	catalogs := map[string]map[string]policy.Definition{}
	err := rules.ForEach(func(k, v []byte) error {
		var r PolicyRule
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("%w (policy rule %q: %v)", ErrCorrupt, k, err)
		}
		serverID, tool, ok := mcpIdentity(r.Identity)
		if r.Pin != nil || !ok {
			return nil
		}
		defs, seen := catalogs[serverID]
		if !seen {
			defs = cachedDefinitions(cats.Get([]byte(serverID)))
			catalogs[serverID] = defs
		}
		def, ok := defs[tool]
		if !ok {
			return nil
		}
		pin, err := policy.PinOf(def)
		if err != nil {
			return nil // a definition that cannot be pinned pins nothing
		}
		r.Pin = &PolicyPin{Digest: pin.Digest, Definition: json.RawMessage(pin.Definition)}
		raw, err := encodeRecord(r)
		if err != nil {
			return fmt.Errorf("encode policy rule %q: %w", k, err)
		}
		updates = append(updates, update{append([]byte(nil), k...), raw})
		return nil
	})
	if err != nil {
		return err
	}
	for _, u := range updates {
		if err := rules.Put(u.key, u.val); err != nil {
			return fmt.Errorf("pin policy rule %q: %w", u.key, err)
		}
	}
	return nil
}

// mcpIdentity splits mcp:<server-id>:<tool>.
func mcpIdentity(identity string) (serverID, tool string, ok bool) {
	rest, ok := strings.CutPrefix(identity, "mcp:")
	if !ok {
		return "", "", false
	}
	serverID, tool, ok = strings.Cut(rest, ":")
	return serverID, tool, ok && serverID != "" && tool != ""
}

// cachedDefinitions decodes the tool definitions of one cached catalog (as
// mcpclient.Catalog encodes them), by tool name; nil when raw is absent or
// does not decode.
func cachedDefinitions(raw []byte) map[string]policy.Definition {
	if raw == nil {
		return nil
	}
	var c struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"input_schema"`
			OutputSchema json.RawMessage `json:"output_schema"`
			Annotations  json.RawMessage `json:"annotations"`
		} `json:"tools"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return nil
	}
	out := make(map[string]policy.Definition, len(c.Tools))
	for _, t := range c.Tools {
		out[t.Name] = policy.Definition{Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: t.Annotations}
	}
	return out
}

// PinUnseenRule pins identity's rule to pin when the rule pins nothing
// yet — a rule set before any server served the tool, whose first served
// definition the person has now seen and allowed (SPEC D8). It reports
// whether it pinned: false when there is no rule, or when the rule is
// already pinned (to this definition or, after a classification that won
// the race, to another), which it leaves as it is. One transaction.
func (db *DB) PinUnseenRule(identity string, pin PolicyPin) (bool, error) {
	if identity == "" || pin.Digest == "" {
		return false, fmt.Errorf("pin a policy rule without an identity or digest: %w", ErrInvalid)
	}
	pinned := false
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketPolicyRules)
		v := b.Get([]byte(identity))
		if v == nil {
			return nil
		}
		var r PolicyRule
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("%w (policy rule %q: %v)", ErrCorrupt, identity, err)
		}
		if r.Pin != nil {
			return nil
		}
		r.Pin = &pin
		raw, err := encodeRecord(r)
		if err != nil {
			return fmt.Errorf("encode policy rule %q: %w", identity, err)
		}
		pinned = true
		return b.Put([]byte(identity), raw)
	})
	if err != nil {
		return false, fmt.Errorf("pin the policy rule for %q: %w", identity, err)
	}
	return pinned, nil
}
