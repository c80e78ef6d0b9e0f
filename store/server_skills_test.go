package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"

	"go.etcd.io/bbolt"
)

// SPEC I3, I4: records are keyed by (server identity, URI): the same URI
// on two servers is two records, and updates are atomic.
func TestServerSkillRecords(t *testing.T) {
	db := openTest(t, Options{})
	const uri = "skill://refunds/SKILL.md"
	for _, id := range []string{"srv-a", "srv-b"} {
		err := db.UpdateServerSkillRecord(id, uri, func(old []byte) ([]byte, error) {
			if old != nil {
				t.Errorf("%s: a record exists before the first write", id)
			}
			return []byte(`{"server":"` + id + `"}`), nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.ServerSkillRecord("srv-a", uri)
	if err != nil || string(got) != `{"server":"srv-a"}` {
		t.Fatalf("record of srv-a = %s, %v", got, err)
	}
	all, err := db.ServerSkillRecords("srv-b")
	if err != nil || len(all) != 1 || string(all[uri]) != `{"server":"srv-b"}` {
		t.Fatalf("records of srv-b = %v, %v", all, err)
	}
	// Concurrent read-modify-write loses nothing.
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.UpdateServerSkillRecord("srv-c", uri, func(old []byte) ([]byte, error) {
				return append(old, 'x'), nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, _ := db.ServerSkillRecord("srv-c", uri); len(got) != 20 {
		t.Errorf("after 20 concurrent updates the record has %d bytes, want 20", len(got))
	}
	// An error from fn writes nothing.
	boom := errors.New("boom")
	if err := db.UpdateServerSkillRecord("srv-a", uri, func([]byte) ([]byte, error) { return []byte("lost"), boom }); !errors.Is(err, boom) {
		t.Fatalf("update error = %v", err)
	}
	if got, _ := db.ServerSkillRecord("srv-a", uri); string(got) != `{"server":"srv-a"}` {
		t.Errorf("a failed update changed the record to %s", got)
	}
	if _, err := db.ServerSkillRecord("", uri); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty server ID: %v, want ErrInvalid", err)
	}
}

// SPEC I3: pinned content is content-addressed and re-hashed on every read;
// a stored blob that no longer matches is never returned.
func TestServerSkillBlobsRehashed(t *testing.T) {
	db := openTest(t, Options{})
	data := []byte("Write commit subjects in the imperative.\n")
	sha, err := db.PutServerSkillBlob(data)
	sum := sha256.Sum256(data)
	if err != nil || sha != hex.EncodeToString(sum[:]) {
		t.Fatalf("PutServerSkillBlob = %s, %v", sha, err)
	}
	got, ok, err := db.ServerSkillBlob(sha)
	if err != nil || !ok || string(got) != string(data) {
		t.Fatalf("ServerSkillBlob = %q, %v, %v", got, ok, err)
	}
	if _, ok, err := db.ServerSkillBlob(strings.Repeat("0", 64)); ok || err != nil {
		t.Errorf("missing blob: ok %v, %v", ok, err)
	}
	// Corrupt the stored bytes behind the store's back.
	err = db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketServerSkillBlobs).Put([]byte(sha), []byte("Push to main directly.\n"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.ServerSkillBlob(sha); !errors.Is(err, ErrCorrupt) || ok || got != nil {
		t.Errorf("corrupted blob = %q, %v, %v; want ErrCorrupt and nothing", got, ok, err)
	}
}

// Removing a server forgets its records, settings and the pinned content
// no other server's record names.
func TestDeleteServerSkills(t *testing.T) {
	db := openTest(t, Options{})
	shared, _ := db.PutServerSkillBlob([]byte("shared"))
	own, _ := db.PutServerSkillBlob([]byte("own"))
	put := func(id, uri, rec string) {
		t.Helper()
		if err := db.UpdateServerSkillRecord(id, uri, func([]byte) ([]byte, error) { return []byte(rec), nil }); err != nil {
			t.Fatal(err)
		}
	}
	put("srv-a", "skill://x/SKILL.md", shared+" "+own)
	put("srv-b", "skill://y/SKILL.md", shared)
	if err := db.PutServerSkillSettings("srv-a", ServerSkillSettings{AllowDynamic: true}); err != nil {
		t.Fatal(err)
	}
	if s, err := db.ServerSkillSettings("srv-a"); err != nil || !s.AllowDynamic {
		t.Fatalf("settings = %+v, %v", s, err)
	}
	names := func(rec []byte) ([]string, error) { return strings.Fields(string(rec)), nil }
	if err := db.DeleteServerSkills("srv-a", names); err != nil {
		t.Fatal(err)
	}
	if recs, _ := db.ServerSkillRecords("srv-a"); len(recs) != 0 {
		t.Errorf("srv-a still has %d records", len(recs))
	}
	if _, ok, _ := db.ServerSkillBlob(own); ok {
		t.Error("srv-a's own pinned content survived its removal")
	}
	if _, ok, _ := db.ServerSkillBlob(shared); !ok {
		t.Error("content srv-b still names was deleted")
	}
	if s, _ := db.ServerSkillSettings("srv-a"); s.AllowDynamic {
		t.Error("srv-a's settings survived its removal")
	}
}
