package app

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"vouch/internal/lock"
	"vouch/internal/sshsign"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/store"
	"vouch/tool"
	"vouch/workflow"
)

// Fleet is the machine's side of the lockfile (SPEC N1–N5): it exports
// what the database trusts, checks it against a lockfile, applies one,
// and verifies the signatures allowed-signers asks for. 'vouch lock' uses
// it, in the session when one holds the state directory (SPEC K5).
type Fleet struct {
	db  *store.DB
	mcp *MCP
	now func() time.Time
}

// Fleet is the state's lockfile side.
func (s *State) Fleet() *Fleet { return &Fleet{db: s.db, mcp: s.mcp, now: time.Now} }

// The lockfile's types, as the command line prints them.
type (
	// LockDrift is one difference between the machine and a lockfile.
	LockDrift = lock.Drift
	// Signer is who signed a lockfile or skill (SPEC N4, N5).
	Signer = sshsign.Signer
)

// Export returns the machine's lockfile (SPEC N1): canonical, so two
// exports of an unchanged machine give the same bytes; it holds no
// secret, only the name of each server's secret header.
func (f *Fleet) Export() ([]byte, error) {
	l, _, err := machineLock(f.db)
	if err != nil {
		return nil, err
	}
	l.WrittenBy = "vouch " + Version
	return lock.Encode(l)
}

// machineLock builds the lock of what db trusts, with the digest each
// pinned tool's server serves now, by the rule's Subject.
func machineLock(db *store.DB) (lock.Lock, map[string]string, error) {
	var l lock.Lock
	served := map[string]string{}
	servers, err := db.MCPServers()
	if err != nil {
		return l, nil, err
	}
	names := map[string]string{}
	for _, s := range servers {
		names[s.ID] = s.Name
		l.Servers = append(l.Servers, lock.Server{Name: s.Name, URL: s.URL, Header: s.HeaderName})
	}
	rules, err := db.PolicyRules()
	if err != nil {
		return l, nil, err
	}
	for _, r := range rules {
		lr, ok := lockRuleOf(r, names)
		if !ok {
			continue // a rule of a server that is gone applies nowhere
		}
		l.Rules = append(l.Rules, lr)
		if d, err := cachedDigest(db, r.Identity); err != nil {
			return l, nil, err
		} else if d != "" {
			served[lr.Subject()] = d
		}
	}
	installed, err := db.Skills()
	if err != nil {
		return l, nil, err
	}
	for _, v := range installed {
		k := lock.Skill{Name: v.Name, Version: v.Version, SHA256: v.SHA256, Signer: v.Signer, Accepted: v.AcceptedFindings}
		for _, file := range v.Files {
			k.Files = append(k.Files, lock.File{Path: file.Path, SHA256: file.SHA256})
		}
		l.Skills = append(l.Skills, k)
	}
	for _, s := range servers {
		ks, err := mcpclient.StoredServerSkills(db, s.ID, s.Name)
		if err != nil {
			return l, nil, fmt.Errorf("read the skills of server %s: %w", safetext.Line(s.Name, 64), err)
		}
		for _, k := range ks {
			if k.Approval != nil {
				l.ServerSkills = append(l.ServerSkills, lock.ServerSkill{Server: s.Name, URI: k.Entry.URI, Set: k.Approval.SetDigest, Signer: k.Approval.Signer})
			}
		}
	}
	profiles, err := db.Profiles()
	if err != nil {
		return l, nil, err
	}
	for _, p := range profiles {
		lp, err := lockProfileOf(db, p, names)
		if err != nil {
			return l, nil, err
		}
		l.Profiles = append(l.Profiles, lp)
	}
	l.Sort()
	return l, served, nil
}

// lockRuleOf is the stored rule r as a lock names it; false for a rule of
// a server names does not hold.
func lockRuleOf(r store.PolicyRule, names map[string]string) (lock.Rule, bool) {
	lr := lock.Rule{Tool: r.Identity, Class: r.Class, Effect: r.Effect}
	if lr.Effect == "" {
		lr.Effect = "mutating"
	}
	if rest, ok := strings.CutPrefix(r.Identity, tool.MCPPrefix); ok {
		id, name, ok := strings.Cut(rest, ":")
		server, known := names[id]
		if !ok || !known {
			return lock.Rule{}, false
		}
		lr.Server, lr.Tool = server, name
	}
	if r.Pin != nil {
		lr.Pin = r.Pin.Digest
	}
	for _, c := range r.Constraints {
		lr.Constraints = append(lr.Constraints, lock.Constraint{Arg: c.Arg, Kind: c.Kind, Values: append([]string(nil), c.Values...)})
	}
	return lr, true
}

// lockProfileOf digests profile p and the definition revision it runs,
// each tool of a server named by the server's name (names: by ID), as a
// lock names it, so that the same profile digests alike on every machine.
func lockProfileOf(db *store.DB, p workflow.Profile, names map[string]string) (lock.Profile, error) {
	lp := lock.Profile{Name: p.Name, Revision: p.Revision, Definition: p.Definition}
	bare := p
	bare.Revision, bare.Updated = 0, time.Time{}
	d, err := digestJSON(bare, names)
	if err != nil {
		return lp, err
	}
	lp.Digest = d
	def, err := db.Definition(p.Definition, p.DefinitionRevision)
	switch {
	case errors.Is(err, store.ErrNotFound):
		lp.DefinitionDigest = "none"
		return lp, nil
	case err != nil:
		return lp, err
	}
	lp.DefinitionRevision = def.Revision
	def.Revision = 0
	if lp.DefinitionDigest, err = digestJSON(def, names); err != nil {
		return lp, err
	}
	return lp, nil
}

func digestJSON(v any, names map[string]string) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("digest: %w", err)
	}
	text := string(raw)
	for id, name := range names { // JSON-escaped, as the name is inside a string
		q, err := json.Marshal(name)
		if err != nil {
			return "", fmt.Errorf("digest: %w", err)
		}
		text = strings.ReplaceAll(text, tool.MCPPrefix+id+":", tool.MCPPrefix+string(q[1:len(q)-1])+":")
	}
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// LockCheck is what 'vouch lock check' reports: the file, who signed it
// (when allowed-signers asks for a signature) and every drift.
type LockCheck struct {
	File   string      `json:"file"`
	Signer *Signer     `json:"signer,omitempty"`
	Drifts []LockDrift `json:"drifts"`
}

// Check compares the machine with the lockfile at path (SPEC N2); "" is
// the managed lock when one is configured, else vouch.lock in dir. A
// lockfile that cannot be read, parsed or verified is an error (Rejected
// for bad input and signatures); drift is in the report, never an error.
func (f *Fleet) Check(path, dir string) (LockCheck, error) {
	if path == "" {
		p, err := managedPath(f.db)
		if err != nil {
			return LockCheck{}, err
		}
		path = cmp.Or(p, filepath.Join(dir, "vouch.lock"))
	}
	l, signer, err := readLock(f.db, path, f.now())
	if err != nil {
		return LockCheck{}, err
	}
	have, served, err := machineLock(f.db)
	if err != nil {
		return LockCheck{}, err
	}
	return LockCheck{File: path, Signer: signer, Drifts: append([]LockDrift{}, lock.Diff(have, served, l)...)}, nil
}

// readLock reads, verifies (when allowed-signers is set) and parses the
// lockfile at path.
func readLock(db SettingStore, path string, now time.Time) (lock.Lock, *Signer, error) {
	data, err := readBounded(path, lock.MaxSize)
	if errors.Is(err, fs.ErrNotExist) { // an unknown file is a usage error, in one sentence (issue 28 items 14, 15)
		return lock.Lock{}, nil, Errorf(Usage, "there is no lockfile at %s; check the path", safetext.Line(path, 200))
	}
	if err != nil {
		return lock.Lock{}, nil, Wrap(Rejected, fmt.Errorf("read the lockfile %s: %w", safetext.Line(path, 200), err))
	}
	signer, err := verifyBeside(db, path, data, sshsign.NamespaceLock, now)
	if err != nil {
		return lock.Lock{}, nil, err
	}
	l, err := lock.Parse(data)
	if err != nil {
		return lock.Lock{}, nil, Wrap(Rejected, fmt.Errorf("%s: %w", safetext.Line(path, 200), err))
	}
	return l, signer, nil
}

// readBounded reads at most limit bytes of path; a larger file is an
// error.
func readBounded(path string, limit int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("it is larger than %d bytes", limit)
	}
	return data, err
}

// newFleet is the lockfile side of db alone: export, check and signing
// (applying through it adds servers to the database only).
func newFleet(db *store.DB) *Fleet { return &Fleet{db: db, now: time.Now} }
