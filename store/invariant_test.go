package store_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
)

// TestNoSecretInDatabase is the ARCHITECTURE invariant "no secret byte ever
// appears in the bbolt file" (SPEC B1, K2): a secret stored through Secrets
// (the encrypted file backend, in the same state dir) next to providers,
// settings and messages appears in no file of the state dir in clear.
func TestNoSecretInDatabase(t *testing.T) {
	const secret = "sk-vouch-invariant-7f3a9c"
	dir := t.TempDir()
	s, err := store.NewSecrets(store.SecretsOptions{StateDir: dir, Getenv: func(k string) string {
		return map[string]string{"VOUCH_KEYRING_BACKEND": "file", "VOUCH_KEYRING_PASSPHRASE": "correct horse"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Set(ctx, "provider:cloud", secret); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, "provider:cloud"); err != nil || got != secret {
		t.Fatalf("Get = %q, %v; want the secret back", got, err)
	}

	db, err := store.Open(filepath.Join(dir, store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutProvider(store.Provider{Name: "cloud", BaseURL: "https://api.example/v1", Kind: "openai"}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetSetting("provider", "cloud"); err != nil {
		t.Fatal(err)
	}
	conv, err := db.CreateConversation("keys")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AppendMessage(store.Message{ConversationID: conv.ID, Role: "user", Content: "use the cloud provider"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	files := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s contains the secret in clear", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 2 {
		t.Errorf("checked %d files, want the database and the keyring file at least", files)
	}
}

// TestStoretestSecrets: the in-memory helper behaves like a keyring.
func TestStoretestSecrets(t *testing.T) {
	s, ring := storetest.Secrets(t)
	ctx := context.Background()
	if err := s.Set(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, "k"); err != nil || got != "v" {
		t.Errorf("Get = %q, %v; want v", got, err)
	}
	if keys, err := ring.Keys(); err != nil || len(keys) != 1 {
		t.Errorf("Keys = %v, %v; want one", keys, err)
	}
	if err := s.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "k"); err != nil {
		t.Errorf("second Delete: got %v, want nil", err)
	}
	if got := s.Backend(); got != "custom" {
		t.Errorf("Backend() = %q, want custom", got)
	}
}
