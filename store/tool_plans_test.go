package store

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// TestToolPlansKept (SPEC F1, F4; issue 29 item 2): plans put are read
// back after the database is closed and opened again, as copies that
// outlive the transaction; a database that never kept any reads as empty;
// keys the bucket reserves are neither written nor read; the bucket
// empties itself at its bound instead of growing.
func TestToolPlansKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := db.ToolPlans([]string{"aa"}); err != nil || len(got) != 0 {
		t.Fatalf("fresh database: %v, %v; want no plans", got, err)
	}
	if err := db.PutToolPlans(map[string][]byte{"aa": []byte("plan a"), "bb": []byte("plan b"), "\x00n": []byte("x"), "cc": nil}); err != nil {
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
	got, err := db.ToolPlans([]string{"aa", "bb", "cc", "dd", "\x00n", ""})
	if err != nil || len(got) != 2 || !bytes.Equal(got["aa"], []byte("plan a")) || !bytes.Equal(got["bb"], []byte("plan b")) {
		t.Fatalf("after reopening: %q, %v", got, err)
	}
	if err := db.PutToolPlans(map[string][]byte{"ee": []byte("plan e")}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got["aa"], []byte("plan a")) {
		t.Errorf("a value read earlier changed to %q after a write", got["aa"])
	}
	big := make(map[string][]byte, maxToolPlans)
	for i := range maxToolPlans {
		big[fmt.Sprintf("k%d", i)] = []byte{byte(i)}
	}
	if err := db.PutToolPlans(big); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.ToolPlans([]string{"aa", "k42"}); len(got) != 1 || !bytes.Equal(got["k42"], []byte{42}) {
		t.Errorf("past the bound: %q; want the old plans dropped, the new kept", got)
	}
	if rep, err := db.DeepCheck(); err != nil || !rep.OK() {
		t.Errorf("doctor --check after keeping plans: %+v, %v", rep, err)
	}
}
