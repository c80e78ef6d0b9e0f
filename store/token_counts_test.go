package store

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestTokenCountsKept (SPEC F4; issue 17): counts put are read back after
// the database is closed and opened again; a database that never kept any
// reads as empty; the bucket empties itself at its bound instead of
// growing.
func TestTokenCountsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := db.TokenCounts([]string{"m\x00aa"}); err != nil || len(got) != 0 {
		t.Fatalf("fresh database: %v, %v; want no counts", got, err)
	}
	if err := db.PutTokenCounts(map[string]int{"m\x00aa": 12, "m\x00bb": 0, "m\x00cc": 70000}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	got, err := db.TokenCounts([]string{"m\x00aa", "m\x00bb", "m\x00cc", "m\x00dd"})
	if err != nil || len(got) != 3 || got["m\x00aa"] != 12 || got["m\x00bb"] != 0 || got["m\x00cc"] != 70000 {
		t.Fatalf("after reopening: %v, %v", got, err)
	}
	big := make(map[string]int, maxTokenCounts)
	for i := range maxTokenCounts {
		big[fmt.Sprintf("m\x00%d", i)] = i
	}
	if err := db.PutTokenCounts(big); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.TokenCounts([]string{"m\x00aa", "m\x0042"}); len(got) != 1 || got["m\x0042"] != 42 {
		t.Errorf("past the bound: %v; want the old counts dropped, the new kept", got)
	}
}
