package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// damageFixture builds a real database with enough policy rules, skills and
// catalog bytes that each of those buckets has pages of its own, closes it,
// and returns its path and one skill blob's content.
func damageFixture(t testing.TB) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, Options{Now: stepClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if err := db.PutPolicyRule(PolicyRule{Identity: fmt.Sprintf("mcp:srv-%03d/tool-%03d", i, i), Class: "read", Effect: "allow",
			Note: strings.Repeat("a note that takes room ", 4)}); err != nil {
			t.Fatal(err)
		}
	}
	blob := []byte("# the one blob\n" + strings.Repeat("instructions that take room\n", 40))
	for i := range 40 {
		data := append([]byte(fmt.Sprintf("# skill %d\n", i)), bytes.Repeat([]byte("text that takes room "), 20)...)
		files := []SkillFile{{Path: "SKILL.md", SHA256: hexSum(data), Size: int64(len(data))}}
		blobs := map[string][]byte{hexSum(data): data}
		if i == 0 {
			files = append(files, SkillFile{Path: "guide.md", SHA256: hexSum(blob), Size: int64(len(blob))})
			blobs[hexSum(blob)] = blob
		}
		v := SkillVersion{Name: fmt.Sprintf("skill-%02d", i), SHA256: hexSum([]byte{byte(i)}), Origin: "local:/tmp/x", Files: files}
		if _, err := db.InstallSkill(v, blobs, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		if err := db.PutCatalog(fmt.Sprintf("server-%02d", i), append(append([]byte("["), bytes.Repeat([]byte(`{"tool":"x"},`), 60)...), "{}]"...)); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path, blob
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// damagePage returns a copy of the database at path whose root page of the
// named top-level bucket has its header bytes flipped: what a bad sector
// or a stray write does to a data page, which bbolt does not checksum.
func damagePage(t *testing.T, path string, bucket []byte) string {
	t.Helper()
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: DefaultOpenTimeout, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var root uint64
	err = bdb.View(func(tx *bbolt.Tx) error {
		root = uint64(tx.Bucket(bucket).Root())
		return nil
	})
	size := bdb.Info().PageSize
	if cerr := bdb.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	if root == 0 {
		t.Fatalf("bucket %s is inline; the fixture must give it a page", bucket)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := int(root) * size
	for i := off; i < off+16; i++ {
		data[i] ^= 0xFF
	}
	out := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(out, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// wantDamaged checks err is the damaged sentence: ErrCorrupt, the file
// named, and what to do.
func wantDamaged(t *testing.T, err error, path string) {
	t.Helper()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v, want ErrCorrupt", err)
	}
	for _, want := range []string{path, "restore a copy", "vouch doctor --check"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

// TestDamagedPageIsASentence is SPEC K1, K3 (issue 14 item 6): a flipped
// data page makes listing policy rules, skills or a catalog return the
// damaged sentence naming the file; it never panics, and the database
// stays usable for what is not damaged.
func TestDamagedPageIsASentence(t *testing.T) {
	path, _ := damageFixture(t)
	cases := []struct {
		name   string
		bucket []byte
		read   func(*DB) error
	}{
		{"policy list", bucketPolicyRules, func(db *DB) error { _, err := db.PolicyRules(); return err }},
		{"skill list", bucketSkills, func(db *DB) error { _, err := db.Skills(); return err }},
		{"tool catalog", bucketMCPCatalogs, func(db *DB) error { _, _, err := db.Catalog("server-07"); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bad := damagePage(t, path, tc.bucket)
			db, err := Open(bad, Options{})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer func() {
				if err := db.Close(); err != nil {
					t.Error(err)
				}
			}()
			wantDamaged(t, tc.read(db), bad)
			// Writes to the damaged bucket fail the same way, and what is
			// not damaged still works.
			err = db.update(func(tx *bbolt.Tx) error { return tx.Bucket(tc.bucket).Put([]byte("zz"), []byte("v")) })
			wantDamaged(t, err, bad)
			if _, err := db.MCPServers(); err != nil {
				t.Errorf("an undamaged bucket: %v", err)
			}
		})
	}
}

// TestDeepCheckReportsDamage: the doctor --check function reports a
// damaged page (bbolt's consistency check or the walk) and a content
// blob whose bytes changed, and nothing on a sound file (SPEC K1, K3).
func TestDeepCheckReportsDamage(t *testing.T) {
	path, blob := damageFixture(t)

	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := db.DeepCheck()
	if cerr := db.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	if !rep.OK() || rep.Blobs < 41 {
		t.Fatalf("sound file: %+v", rep)
	}

	t.Run("page", func(t *testing.T) {
		bad := damagePage(t, path, bucketSkills)
		db, err := Open(bad, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rep, err := db.DeepCheck()
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK() || len(rep.Problems) == 0 || !strings.Contains(strings.Join(rep.Problems, "\n"), "skills") {
			t.Errorf("damaged page not reported: %+v", rep)
		}
	})

	t.Run("blob", func(t *testing.T) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(data, blob)
		if i < 0 {
			t.Fatal("blob not found in the file")
		}
		data[i+3] ^= 0x20 // "the" -> "tHe": same size, no page structure touched
		bad := filepath.Join(t.TempDir(), FileName)
		if err := os.WriteFile(bad, data, 0o600); err != nil {
			t.Fatal(err)
		}
		db, err := Open(bad, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Check(); err != nil {
			t.Fatalf("bbolt's own check should not see a changed value (no checksums): %v", err)
		}
		rep, err := db.DeepCheck()
		if err != nil {
			t.Fatal(err)
		}
		want := "skill_blobs/" + hexSum(blob)
		if rep.OK() || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], want) {
			t.Errorf("changed blob: got %+v, want one problem naming %s", rep, want)
		}
	})
}

// TestDeepCheckDecodesEveryRecord is SPEC K1, K3 (issue 25 item 4): a
// record whose bytes no longer decode — a policy rule, a message, a skill
// revision, a run, a token count — is reported by DeepCheck with its
// bucket and key, each once, while bbolt's own check sees nothing wrong
// (the pages are sound); the database stays usable for the rest.
func TestDeepCheckDecodesEveryRecord(t *testing.T) {
	path, _ := damageFixture(t)
	db, err := Open(path, Options{Now: stepClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := db.CreateConversation("check")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AppendMessage(Message{ConversationID: conv.ID, Role: "user", Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: DefaultOpenTimeout})
	if err != nil {
		t.Fatal(err)
	}
	garbage := []byte("{\"identity\": 7, not json")
	err = bdb.Update(func(tx *bbolt.Tx) error {
		puts := []struct {
			b    *bbolt.Bucket
			k, v []byte
		}{
			{tx.Bucket(bucketPolicyRules), []byte("mcp:srv-007/tool-007"), garbage},
			{tx.Bucket(bucketMessages).Bucket([]byte(conv.ID)), binary.BigEndian.AppendUint64(nil, 1), []byte("[1,2")},
			{tx.Bucket(bucketSkills).Bucket([]byte("skill-03")), binary.BigEndian.AppendUint32(nil, 1), []byte(`{"name": ["not a string"]}`)},
			{tx.Bucket(bucketConversations), []byte(conv.ID), []byte("nul\x00")},
			{tx.Bucket(bucketMCPCatalogs), []byte("server-04"), []byte("{\"tools\": [")},
		}
		for _, p := range puts {
			if err := p.b.Put(p.k, p.v); err != nil {
				return err
			}
		}
		tc, err := tx.CreateBucketIfNotExists(bucketTokenCounts)
		if err != nil {
			return err
		}
		return tc.Put([]byte("prompt-digest"), bytes.Repeat([]byte{0xff}, 11))
	})
	if cerr := bdb.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("bbolt's own check sees the records, not only the pages: %v", err)
	}
	rep, err := db.DeepCheck()
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(rep.Problems, "\n")
	for _, want := range []string{
		"policy_rules/mcp:srv-007/tool-007:",
		"messages/" + conv.ID + "/0000000000000001:",
		"skills/skill-03/00000001:",
		"conversations/" + conv.ID + ":",
		"mcp_catalogs/server-04:",
		"token_counts/prompt-digest:",
	} {
		if strings.Count(all, want) != 1 {
			t.Errorf("want one problem naming %q; got:\n%s", want, all)
		}
	}
	if len(rep.Problems) != 6 {
		t.Errorf("%d problems, want 6:\n%s", len(rep.Problems), all)
	}
	for _, p := range rep.Problems {
		if !strings.Contains(p, "cannot be decoded") || !strings.HasSuffix(p, ".") || strings.Contains(p, "not json") {
			t.Errorf("problem is not one sentence naming the record and what to do, or repeats its bytes: %q", p)
		}
	}
	if _, err := db.MCPServers(); err != nil {
		t.Errorf("an undamaged bucket: %v", err)
	}
}

// BenchmarkDeepCheck is what `vouch doctor --check` costs on a database of
// 100,000 messages and the damage fixture's rules, skills and catalogs
// (docs/BENCHMARKS.md; issue 25 item 4: every record is now decoded).
func BenchmarkDeepCheck(b *testing.B) {
	path, _ := damageFixture(b)
	db, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fillConversation(b, db, 100000)
	for b.Loop() {
		rep, err := db.DeepCheck()
		if err != nil || !rep.OK() {
			b.Fatalf("%+v %v", rep, err)
		}
	}
}
