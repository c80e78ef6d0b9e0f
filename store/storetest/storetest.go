package storetest

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/99designs/keyring"

	"vouch/store"
)

// MustOpen opens a fresh database in t.TempDir() and closes it when the
// test ends. It fails the test if either step fails.
func MustOpen(t testing.TB) *store.DB {
	t.Helper()
	return MustOpenWith(t, store.Options{})
}

// MustOpenWith is MustOpen with options, e.g. a fixed clock.
func MustOpenWith(t testing.TB, opts store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), store.FileName), opts)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("storetest: %v", err)
		}
	})
	return db
}

// Secrets returns store.Secrets over a fresh MemKeyring, and that keyring
// so the test can inspect it.
func Secrets(t testing.TB) (*store.Secrets, *MemKeyring) {
	t.Helper()
	ring := &MemKeyring{}
	s, err := store.NewSecrets(store.SecretsOptions{Keyring: ring})
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return s, ring
}

// MemKeyring is an in-memory keyring.Keyring, safe for concurrent use.
// Never use it outside tests and demos: nothing is protected.
type MemKeyring struct {
	mu    sync.Mutex
	items map[string]keyring.Item
}

var _ keyring.Keyring = (*MemKeyring)(nil)

// Get returns the item stored under key, or keyring.ErrKeyNotFound.
func (k *MemKeyring) Get(key string) (keyring.Item, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	it, ok := k.items[key]
	if !ok {
		return keyring.Item{}, keyring.ErrKeyNotFound
	}
	it.Data = slices.Clone(it.Data)
	return it, nil
}

// GetMetadata is not supported, as with most real backends.
func (k *MemKeyring) GetMetadata(string) (keyring.Metadata, error) {
	return keyring.Metadata{}, keyring.ErrMetadataNotSupported
}

// Set stores a copy of it.
func (k *MemKeyring) Set(it keyring.Item) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.items == nil {
		k.items = map[string]keyring.Item{}
	}
	it.Data = slices.Clone(it.Data)
	k.items[it.Key] = it
	return nil
}

// Remove deletes key, or returns keyring.ErrKeyNotFound.
func (k *MemKeyring) Remove(key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.items[key]; !ok {
		return keyring.ErrKeyNotFound
	}
	delete(k.items, key)
	return nil
}

// Keys returns the stored keys, sorted.
func (k *MemKeyring) Keys() ([]string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	keys := make([]string, 0, len(k.items))
	for key := range k.items {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys, nil
}
