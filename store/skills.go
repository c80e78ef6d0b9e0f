package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.etcd.io/bbolt"

	"vouch/workflow"
)

// The skill catalog (SPEC G1, G4, G5, H4). bucketSkillBlobs maps a file's
// hex sha256 to its bytes, so a file shared by several versions or skills
// is stored once. bucketSkills holds one nested bucket per skill name whose
// keys are big-endian version numbers (see revisions.go) and whose values
// are JSON SkillVersion records naming their files by digest. A version is
// never rewritten: an update is the next version. The store does not know
// the package format; cmd/vouch converts an imported package into a
// SkillVersion and its blobs.

// maxSkillNameLen bounds a skill name in bytes.
const maxSkillNameLen = 128

// SkillFile is one kept file of a skill version, named by the digest of
// its content in the blob bucket.
type SkillFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// SkillExcluded is a file the importer left out, and why.
type SkillExcluded struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// SkillFinding is one scanner finding kept with the version it was found
// in, so the catalog shows it after installation too.
type SkillFinding struct {
	// ID is the scanner's stable finding ID; Severity "high", "medium" or
	// "low" (empty in versions installed before severities existed).
	ID       string `json:"id,omitempty"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Rule     string `json:"rule"`
	Severity string `json:"severity,omitempty"`
	Detail   string `json:"detail"`
	Action   string `json:"action"`
}

// SeverityHigh is the finding severity that blocks an install unless its
// ID is in SkillVersion.AcceptedFindings (SPEC G8).
const SeverityHigh = "high"

// SkillVersion is one installed version of a skill. Installing it grants
// nothing: RequestedTools are a request the person may act on elsewhere
// (SPEC G4, H3).
type SkillVersion struct {
	Name string `json:"name"`
	// Version counts 1, 2, ... per name; InstallSkill assigns it.
	Version int `json:"version"`
	// SHA256 is the package digest.
	SHA256 string `json:"sha256"`
	// Origin says where it came from: "local:<source path>".
	Origin string `json:"origin"`
	// Installed is set by InstallSkill.
	Installed time.Time `json:"installed"`

	Description   string            `json:"description,omitempty"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`

	// Files are the kept files, SKILL.md first.
	Files []SkillFile `json:"files"`
	// Resources are the declared text resources: the only files a model may
	// read (SPEC H5). Each is also in Files.
	Resources []string `json:"resources"`

	RequestedTools []string        `json:"requested_tools,omitempty"`
	Excluded       []SkillExcluded `json:"excluded,omitempty"`
	Findings       []SkillFinding  `json:"findings,omitempty"`
	Warnings       []string        `json:"warnings,omitempty"`
	// AcceptedFindings are the IDs of the high-severity findings the
	// person accepted to install this version (`--accept-findings`, or the
	// preview's second confirmation); kept with the install (SPEC G8).
	AcceptedFindings []string `json:"accepted_findings,omitempty"`
	// Signer is who signed the package ("principal, KEYTYPE SHA256:…")
	// when an allowed signer did; empty for an unsigned one (SPEC N5).
	Signer string `json:"signer,omitempty"`
}

// InstallSkill stores v as the next version of v.Name together with the
// file contents it names (blobs: hex sha256 -> content; a blob already in
// the catalog may be left out) and the definitions to import, all in one
// transaction: on any error nothing is written. It returns v with its
// assigned Version and Installed time.
//
// Every file must have its blob, every blob must hash to its key and match
// its file's size, every blob given must be used, SKILL.md must come first
// and every resource must be a kept file; otherwise the error wraps
// ErrInvalid. Definitions are validated and appended as revisions like
// PutDefinition; whether one may be saved over an existing definition
// (SPEC G5) is the caller's decision, made with DefinitionConflict.
//
// A version with a high-severity finding whose ID is not in
// v.AcceptedFindings is refused with ErrUnaccepted, and an accepted ID
// that names none of its findings with ErrInvalid (SPEC G8): the store is
// the last gate, whatever front end asks.
func (db *DB) InstallSkill(v SkillVersion, blobs map[string][]byte, defs []workflow.Definition) (SkillVersion, error) {
	if err := precheckSkill(v, blobs); err != nil {
		return SkillVersion{}, err
	}
	v.Installed = db.timestamp()
	err := db.update(func(tx *bbolt.Tx) error { return installSkillTx(tx, &v, blobs, defs) })
	if err != nil {
		return SkillVersion{}, fmt.Errorf("install skill %q: %w", v.Name, err)
	}
	return v, nil
}

// precheckSkill is what InstallSkill checks before its transaction.
func precheckSkill(v SkillVersion, blobs map[string][]byte) error {
	if err := checkSkillVersion(v, blobs); err != nil {
		return fmt.Errorf("install skill %q: %w: %w", v.Name, ErrInvalid, err)
	}
	var open []string
	for _, f := range v.Findings {
		if f.Severity == SeverityHigh && !slices.Contains(v.AcceptedFindings, f.ID) && !slices.Contains(open, f.ID) {
			open = append(open, f.ID)
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("install skill %q: %w: --accept-findings %s", v.Name, ErrUnaccepted, strings.Join(open, ","))
	}
	return nil
}

// installSkillTx writes one prechecked version inside tx, setting its
// Version.
func installSkillTx(tx *bbolt.Tx, v *SkillVersion, blobs map[string][]byte, defs []workflow.Definition) error {
	stored := tx.Bucket(bucketSkillBlobs)
	for _, f := range v.Files {
		if data, ok := blobs[f.SHA256]; ok {
			if stored.Get([]byte(f.SHA256)) != nil {
				continue
			}
			if err := stored.Put([]byte(f.SHA256), data); err != nil {
				return fmt.Errorf("save file %s: %w", f.Path, err)
			}
			continue
		}
		have := stored.Get([]byte(f.SHA256))
		if have == nil || int64(len(have)) != f.Size {
			return fmt.Errorf("%w: file %s has no content (sha256 %s)", ErrInvalid, f.Path, f.SHA256)
		}
	}
	for _, d := range defs {
		if _, err := putDefinition(tx, d); err != nil {
			return fmt.Errorf("import definition %q: %w", d.Name, err)
		}
	}
	rev, err := appendRevision(tx.Bucket(bucketSkills), v.Name, func(rev int) ([]byte, error) {
		v.Version = rev
		return json.Marshal(v)
	})
	v.Version = rev
	return err
}

// checkSkillVersion checks v and blobs before a transaction starts.
func checkSkillVersion(v SkillVersion, blobs map[string][]byte) error {
	if v.Name == "" || len(v.Name) > maxSkillNameLen || !utf8.ValidString(v.Name) ||
		slices.ContainsFunc([]rune(v.Name), func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) {
		return fmt.Errorf("skill name %q must be 1 to %d bytes of printable UTF-8 without spaces", v.Name, maxSkillNameLen)
	}
	if !isDigest(v.SHA256) {
		return fmt.Errorf("package digest %q is not a hex sha256", v.SHA256)
	}
	for _, id := range v.AcceptedFindings {
		if !slices.ContainsFunc(v.Findings, func(f SkillFinding) bool { return f.ID == id }) {
			return fmt.Errorf("accepted finding %q is not a finding of this version", id)
		}
	}
	if len(v.Files) == 0 || v.Files[0].Path != "SKILL.md" {
		return errors.New("the first file must be SKILL.md")
	}
	paths := map[string]bool{}
	used := map[string]bool{}
	for _, f := range v.Files {
		if paths[f.Path] {
			return fmt.Errorf("file %q is listed twice", f.Path)
		}
		paths[f.Path] = true
		if !isDigest(f.SHA256) {
			return fmt.Errorf("file %q: digest %q is not a hex sha256", f.Path, f.SHA256)
		}
		used[f.SHA256] = true
		if data, ok := blobs[f.SHA256]; ok && int64(len(data)) != f.Size {
			return fmt.Errorf("file %q is %d bytes, not the %d listed", f.Path, len(data), f.Size)
		}
	}
	for sum, data := range blobs {
		if !used[sum] {
			return fmt.Errorf("content %s belongs to no listed file", sum)
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sum {
			return fmt.Errorf("content listed as %s does not hash to it", sum)
		}
	}
	for _, r := range v.Resources {
		if !paths[r] {
			return fmt.Errorf("resource %q is not a kept file", r)
		}
	}
	return nil
}

func isDigest(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Skills returns the latest version of every installed skill, by name.
func (db *DB) Skills() ([]SkillVersion, error) {
	var out []SkillVersion
	err := db.view(func(tx *bbolt.Tx) error {
		return latestRevisions(tx.Bucket(bucketSkills), func(_, v []byte) error {
			s, err := decodeSkill(v)
			out = append(out, s)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list skills: %w", err)
	}
	return out, nil
}

// SkillVersions returns every version of the named skill, oldest first;
// ErrNotFound when none is installed.
func (db *DB) SkillVersions(name string) ([]SkillVersion, error) {
	var out []SkillVersion
	err := db.view(func(tx *bbolt.Tx) error {
		return allRevisions(tx.Bucket(bucketSkills), "skill", name, func(v []byte) error {
			s, err := decodeSkill(v)
			out = append(out, s)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list versions of skill %q: %w", name, err)
	}
	return out, nil
}

// Skill returns version version of the named skill (0: the latest);
// ErrNotFound when there is none.
func (db *DB) Skill(name string, version int) (SkillVersion, error) {
	var s SkillVersion
	err := db.view(func(tx *bbolt.Tx) error {
		v, err := revision(tx.Bucket(bucketSkills), "skill", name, version)
		if err != nil {
			return err
		}
		s, err = decodeSkill(v)
		return err
	})
	if err != nil {
		return SkillVersion{}, fmt.Errorf("read skill: %w", err)
	}
	return s, nil
}

// SkillBlob returns a copy of the file content with that hex sha256;
// ErrNotFound when the catalog holds none.
func (db *DB) SkillBlob(sum string) ([]byte, error) {
	var out []byte
	err := db.view(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketSkillBlobs).Get([]byte(sum))
		if v == nil {
			return fmt.Errorf("skill file %s: %w", sum, ErrNotFound)
		}
		out = bytes.Clone(v)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read skill file: %w", err)
	}
	return out, nil
}

// RemoveSkill removes every version of the named skill and, in the same
// transaction, every blob no remaining version names; ErrNotFound when it
// is not installed. Definitions the skill imported stay: they are the
// person's now, and profiles may use them.
func (db *DB) RemoveSkill(name string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		top := tx.Bucket(bucketSkills)
		var candidates []string
		err := allRevisions(top, "skill", name, func(v []byte) error {
			s, err := decodeSkill(v)
			for _, f := range s.Files {
				candidates = append(candidates, f.SHA256)
			}
			return err
		})
		if err != nil {
			return err
		}
		if err := top.DeleteBucket([]byte(name)); err != nil {
			return fmt.Errorf("delete skill %q: %w", name, err)
		}
		used := map[string]bool{}
		err = top.ForEachBucket(func(k []byte) error {
			return top.Bucket(k).ForEach(func(_, v []byte) error {
				s, err := decodeSkill(v)
				for _, f := range s.Files {
					used[f.SHA256] = true
				}
				return err
			})
		})
		if err != nil {
			return err
		}
		blobs := tx.Bucket(bucketSkillBlobs)
		for _, sum := range candidates {
			if used[sum] {
				continue
			}
			if err := blobs.Delete([]byte(sum)); err != nil {
				return fmt.Errorf("delete skill file %s: %w", sum, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove skill: %w", err)
	}
	return nil
}

func decodeSkill(v []byte) (SkillVersion, error) {
	var s SkillVersion
	if err := json.Unmarshal(v, &s); err != nil {
		return SkillVersion{}, fmt.Errorf("skill record: %w (%w)", ErrCorrupt, err)
	}
	return s, nil
}

// CatalogDump returns every bucket, key and value of the skill catalog and
// the definitions, in bbolt's order, as one byte string: two equal dumps
// mean byte-for-byte equal catalogs. Tests compare dumps taken before and
// after a rejected import (SPEC G3).
func (db *DB) CatalogDump() ([]byte, error) {
	var b bytes.Buffer
	err := db.view(func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketSkillBlobs, bucketSkills, bucketDefinitions} {
			dumpBucket(&b, string(name), tx.Bucket(name))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dump the skill catalog: %w", err)
	}
	return b.Bytes(), nil
}

func dumpBucket(b *bytes.Buffer, path string, bk *bbolt.Bucket) {
	fmt.Fprintf(b, "bucket %q seq %d\n", path, bk.Sequence())
	c := bk.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil {
			dumpBucket(b, path+"/"+hex.EncodeToString(k), bk.Bucket(k))
			continue
		}
		fmt.Fprintf(b, "%x=%x\n", k, v)
	}
}
