package store

import (
	"encoding/json"
	"fmt"
	"net/url"

	"go.etcd.io/bbolt"
)

// Setting returns the value stored under key; ok is false when unset.
func (db *DB) Setting(key string) (value string, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketSettings).Get([]byte(key))
		value, ok = string(v), v != nil
		return nil
	})
	if err != nil {
		return "", false, fmt.Errorf("read setting %q: %w", key, err)
	}
	return value, ok, nil
}

// SetSetting stores value under key. Settings are plain text in the
// database: never pass a secret (use Secrets).
func (db *DB) SetSetting(key, value string) error {
	if key == "" {
		return fmt.Errorf("setting without a key: %w", ErrInvalid)
	}
	err := db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketSettings).Put([]byte(key), []byte(value))
	})
	if err != nil {
		return fmt.Errorf("write setting %q: %w", key, err)
	}
	return nil
}

// Provider is a configured model server. It holds no secret: an API key
// lives in the keyring under the provider's name (SPEC A1, K2).
type Provider struct {
	Name          string `json:"name"`
	BaseURL       string `json:"base_url"`
	Kind          string `json:"kind"` // e.g. "llama.cpp", "lmstudio", "ollama", "vllm", "openai"
	DefaultModel  string `json:"default_model,omitempty"`
	ContextWindow int    `json:"context_window,omitempty"` // 0: ask the server or use a default (SPEC A3)
}

// PutProvider creates or replaces the provider with p.Name. A BaseURL with
// credentials in it (https://user:key@host) is refused: keys go to the
// keyring.
func (db *DB) PutProvider(p Provider) error {
	if p.Name == "" {
		return fmt.Errorf("provider without a name: %w", ErrInvalid)
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		return fmt.Errorf("provider %q: base URL does not parse: %w", p.Name, ErrInvalid)
	}
	if u.User != nil {
		return fmt.Errorf("provider %q: base URL carries credentials; store the key in the keyring instead: %w", p.Name, ErrInvalid)
	}
	v, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode provider %q: %w", p.Name, err)
	}
	err = db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketProviders).Put([]byte(p.Name), v)
	})
	if err != nil {
		return fmt.Errorf("write provider %q: %w", p.Name, err)
	}
	return nil
}

// Providers returns every provider, ordered by name.
func (db *DB) Providers() ([]Provider, error) {
	var out []Provider
	err := db.view(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketProviders).ForEach(func(k, v []byte) error {
			var p Provider
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("provider %q: %w (%w)", k, ErrCorrupt, err)
			}
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list providers: %w", err)
	}
	return out, nil
}

// DeleteProvider removes the provider; ErrNotFound when there is none.
func (db *DB) DeleteProvider(name string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketProviders)
		if b.Get([]byte(name)) == nil {
			return fmt.Errorf("provider %q: %w", name, ErrNotFound)
		}
		return b.Delete([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("delete provider: %w", err)
	}
	return nil
}
