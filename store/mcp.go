package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.etcd.io/bbolt"
)

// MCPServer is the non-secret configuration of one remote MCP server (SPEC
// B1). Its secret header value lives only in the keyring, under the ID.
type MCPServer struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	URL        string    `json:"url"`
	HeaderName string    `json:"header_name,omitempty"`
	Active     bool      `json:"active"`
	Created    time.Time `json:"created"`
	// CallTimeoutMS bounds each tool call of the server, in milliseconds;
	// 0 means vouch's default (SPEC B11).
	CallTimeoutMS int64 `json:"call_timeout_ms,omitempty"`
}

// PutMCPServer creates or replaces the server with s.ID. Names are unique
// without regard to case: another server's name is refused with
// ErrDuplicate, and nothing is written.
func (db *DB) PutMCPServer(s MCPServer) error {
	if s.ID == "" || strings.TrimSpace(s.Name) == "" {
		return fmt.Errorf("MCP server without an ID or name: %w", ErrInvalid)
	}
	if s.Created.IsZero() {
		s.Created = db.timestamp()
	}
	val, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode MCP server %q: %w", s.Name, err)
	}
	err = db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketMCPServers)
		err := b.ForEach(func(k, v []byte) error {
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
		return b.Put([]byte(s.ID), val)
	})
	if err != nil {
		return fmt.Errorf("save MCP server %q: %w", s.Name, err)
	}
	return nil
}

// MCPServers returns every configured server, ordered by name.
func (db *DB) MCPServers() ([]MCPServer, error) {
	var out []MCPServer
	err := db.view(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMCPServers).ForEach(func(k, v []byte) error {
			var s MCPServer
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("MCP server %s: %w", k, ErrCorrupt)
			}
			out = append(out, s)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list MCP servers: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out, nil
}

// MCPServerByName returns the server named name, without regard to case.
func (db *DB) MCPServerByName(name string) (MCPServer, error) {
	all, err := db.MCPServers()
	if err != nil {
		return MCPServer{}, err
	}
	for _, s := range all {
		if strings.EqualFold(s.Name, name) {
			return s, nil
		}
	}
	return MCPServer{}, fmt.Errorf("MCP server %q: %w", name, ErrNotFound)
}

// DeleteMCPServer removes the server, its cached catalog and every
// conversation's selection of its tools. The caller removes its secret.
func (db *DB) DeleteMCPServer(id string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketMCPServers).Get([]byte(id)) == nil {
			return fmt.Errorf("MCP server %s: %w", id, ErrNotFound)
		}
		if err := tx.Bucket(bucketMCPServers).Delete([]byte(id)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketMCPCatalogs).Delete([]byte(id)); err != nil {
			return err
		}
		// Tool identities embed the server ID: mcp:<id>:<tool>.
		marker := []byte("\x00mcp:" + id + ":")
		off := tx.Bucket(bucketToolsOff)
		var drop [][]byte
		err := off.ForEach(func(k, _ []byte) error {
			if bytes.Contains(k, marker) {
				drop = append(drop, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range drop {
			if err := off.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove MCP server: %w", err)
	}
	return nil
}

// PutCatalog stores the encoded tool catalog of serverID.
func (db *DB) PutCatalog(serverID string, data []byte) error {
	if serverID == "" {
		return fmt.Errorf("catalog without a server ID: %w", ErrInvalid)
	}
	err := db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMCPCatalogs).Put([]byte(serverID), data)
	})
	if err != nil {
		return fmt.Errorf("save the tool catalog of %s: %w", serverID, err)
	}
	return nil
}

// Catalog returns a copy of the encoded tool catalog of serverID; ok is
// false when none is stored.
func (db *DB) Catalog(serverID string) (data []byte, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketMCPCatalogs).Get([]byte(serverID))
		if v != nil {
			data, ok = bytes.Clone(v), true
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("read the tool catalog of %s: %w", serverID, err)
	}
	return data, ok, nil
}

// DeleteCatalog removes the cached catalog of serverID, if any.
func (db *DB) DeleteCatalog(serverID string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMCPCatalogs).Delete([]byte(serverID))
	})
	if err != nil {
		return fmt.Errorf("remove the tool catalog of %s: %w", serverID, err)
	}
	return nil
}

func toolOffKey(convID, identity string) []byte {
	return []byte(convID + "\x00" + identity)
}

// SetToolEnabled turns one tool on or off for a conversation. Tools are on
// unless turned off.
func (db *DB) SetToolEnabled(convID, identity string, enabled bool) error {
	if convID == "" || identity == "" || strings.ContainsRune(convID, 0) {
		return fmt.Errorf("tool selection without a conversation or tool: %w", ErrInvalid)
	}
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketToolsOff)
		if enabled {
			return b.Delete(toolOffKey(convID, identity))
		}
		return b.Put(toolOffKey(convID, identity), nil)
	})
	if err != nil {
		return fmt.Errorf("save the tool selection: %w", err)
	}
	return nil
}

// DisabledTools returns the identities turned off for a conversation.
func (db *DB) DisabledTools(convID string) (map[string]bool, error) {
	out := map[string]bool{}
	prefix := []byte(convID + "\x00")
	err := db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketToolsOff).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			out[string(k[len(prefix):])] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the tool selection: %w", err)
	}
	return out, nil
}
