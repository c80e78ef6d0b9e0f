package store

import (
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkOpenNew (SPEC K1; issue 29 item 1) is Open of a new database —
// a first launch's, where every schema step runs — and Close.
//
//	go test -run '^$' -bench BenchmarkOpenNew -benchtime 50x ./store/
func BenchmarkOpenNew(b *testing.B) {
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		db, err := Open(filepath.Join(dir, strconv.Itoa(i)+".db"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
