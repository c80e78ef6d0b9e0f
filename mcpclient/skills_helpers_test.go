package mcpclient

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
	"vouch/skills"
)

// memSkillStore is an in-memory SkillStore with the store's semantics:
// records updated atomically, blobs content-addressed and re-hashed on read.
type memSkillStore struct {
	mu      sync.Mutex
	records map[string][]byte
	blobs   map[string][]byte
}

func newMemSkillStore() *memSkillStore {
	return &memSkillStore{records: map[string][]byte{}, blobs: map[string][]byte{}}
}

func (s *memSkillStore) ServerSkillRecord(serverID, uri string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.records[serverID+"\x00"+uri]), nil
}

func (s *memSkillStore) UpdateServerSkillRecord(serverID, uri string, fn func([]byte) ([]byte, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := serverID + "\x00" + uri
	rec, err := fn(bytes.Clone(s.records[k]))
	if err != nil {
		return err
	}
	if rec == nil {
		delete(s.records, k)
	} else {
		s.records[k] = rec
	}
	return nil
}

func (s *memSkillStore) ServerSkillRecords(serverID string) (map[string][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]byte{}
	for k, v := range s.records {
		if id, uri, _ := strings.Cut(k, "\x00"); id == serverID {
			out[uri] = bytes.Clone(v)
		}
	}
	return out, nil
}

func (s *memSkillStore) PutServerSkillBlob(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blobs[h] = bytes.Clone(data)
	return h, nil
}

func (s *memSkillStore) ServerSkillBlob(sha string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.blobs[sha]
	if !ok {
		return nil, false, nil
	}
	sum := sha256.Sum256(d)
	if hex.EncodeToString(sum[:]) != sha {
		return nil, false, errors.New("pinned blob no longer matches its digest")
	}
	return bytes.Clone(d), true, nil
}

func (s *memSkillStore) blobCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.blobs)
}

// skillsEnv is a manager, a skill service and one skills server.
type skillsEnv struct {
	m     *Manager
	svc   *SkillService
	store *memSkillStore
	srv   *mcptest.SkillsServer
	cfg   ServerConfig
	// dynamic is the per-server "allow dynamic skills" setting.
	dynamic map[string]bool
	mu      sync.Mutex
}

func newSkillsServer(t testing.TB, opts mcptest.SkillsOptions) *mcptest.SkillsServer {
	t.Helper()
	srv, err := mcptest.NewSkillsServer(opts)
	if err != nil {
		t.Fatalf("start skills server: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close skills server: %v", err)
		}
	})
	return srv
}

func newSkillsEnv(t testing.TB, label string, opts mcptest.SkillsOptions) *skillsEnv {
	t.Helper()
	env := &skillsEnv{store: newMemSkillStore(), dynamic: map[string]bool{}}
	env.m, _ = newManager(t, Options{})
	env.srv = newSkillsServer(t, opts)
	env.cfg = activeServer(t, env.m, label, env.srv.URL)
	svc, err := NewSkillService(env.m, SkillServiceOptions{Store: env.store, Scan: skills.Scan,
		AllowDynamic: func(id string) (bool, error) {
			env.mu.Lock()
			defer env.mu.Unlock()
			return env.dynamic[id], nil
		},
		Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	env.svc = svc
	return env
}

// addServer adds a second skills server to the same manager.
func (env *skillsEnv) addServer(t testing.TB, label string) (*mcptest.SkillsServer, ServerConfig) {
	t.Helper()
	srv := newSkillsServer(t, mcptest.SkillsOptions{})
	return srv, activeServer(t, env.m, label, srv.URL)
}

// approve previews and approves a skill as the person would.
func (env *skillsEnv) approve(t testing.TB, serverID, uri string) ServerSkill {
	t.Helper()
	p, err := env.svc.Preview(context.Background(), serverID, uri)
	if err != nil {
		t.Fatalf("preview %s: %v", uri, err)
	}
	k, err := env.svc.Approve(context.Background(), serverID, uri, p.SetDigest)
	if err != nil {
		t.Fatalf("approve %s: %v", uri, err)
	}
	return k
}

// gitSkill is a small two-file skill.
func gitSkill() mcptest.Skill {
	return mcptest.Skill{Path: "git-workflow", Description: "Follow the team's Git conventions",
		Files: map[string][]byte{
			"SKILL.md":              mcptest.SkillMD("git-workflow", "Follow the team's Git conventions", "Branch from main. See references/commits.md."),
			"references/commits.md": []byte("Write commit subjects in the imperative.\n"),
		}}
}
