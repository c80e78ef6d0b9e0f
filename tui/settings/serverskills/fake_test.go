package serverskills

import (
	"context"
	"fmt"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// call is one call the backend received.
type call struct {
	op, server, uri, digest string
	accept                  []string
	n                       int
}

func (c call) String() string {
	return fmt.Sprintf("%s(%s %s %s %v %d)", c.op, c.server, c.uri, c.digest, c.accept, c.n)
}

// fakeBackend serves one listing and one preview per URI; it records
// every call, whether its context had a deadline, and fails as told.
type fakeBackend struct {
	mu        sync.Mutex
	listing   Listing
	previews  map[string]Preview
	calls     []call
	unbounded []string // ops called without a deadline
	errs      map[string]error
}

func (f *fakeBackend) record(ctx context.Context, c call) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	if _, ok := ctx.Deadline(); !ok {
		f.unbounded = append(f.unbounded, c.op)
	}
	return f.errs[c.op]
}

func (f *fakeBackend) ListServerSkills(ctx context.Context, serverID string) (Listing, error) {
	err := f.record(ctx, call{op: "list", server: serverID})
	return f.listing, err
}

func (f *fakeBackend) PreviewServerSkill(ctx context.Context, serverID, uri string) (Preview, error) {
	err := f.record(ctx, call{op: "preview", server: serverID, uri: uri})
	return f.previews[uri], err
}

func (f *fakeBackend) ApproveServerSkill(ctx context.Context, serverID, uri, setDigest string, accept []string) (Skill, error) {
	err := f.record(ctx, call{op: "approve", server: serverID, uri: uri, digest: setDigest, accept: accept})
	return Skill{URI: uri, State: StateApproved, Sentence: "Approved; the skill serves from its pinned files."}, err
}

func (f *fakeBackend) KeepServerSkill(ctx context.Context, serverID, uri string) (Skill, error) {
	err := f.record(ctx, call{op: "keep", server: serverID, uri: uri})
	return Skill{URI: uri, State: StatePinned, Sentence: "Kept the pinned version."}, err
}

func (f *fakeBackend) RollbackServerSkill(ctx context.Context, serverID, uri string, n int) (Skill, error) {
	err := f.record(ctx, call{op: "rollback", server: serverID, uri: uri, n: n})
	return Skill{URI: uri, State: StateApproved, Sentence: fmt.Sprintf("Approval %d is in effect.", n)}, err
}

func (f *fakeBackend) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.calls))
	for i, c := range f.calls {
		out[i] = c.String()
	}
	return out
}

const (
	uriNotes  = "skill://docs/notes/SKILL.md"
	uriDeploy = "skill://ops/deploy/SKILL.md"
	digest    = "sha256:0123456789abcdef0123456789abcdef"
)

var server = settings.ServerView{ID: "s-1", Name: "docs", Active: true}

func backend() *fakeBackend {
	notes := Skill{URI: uriNotes, Name: "docs/notes", Description: "Take notes.\nSecond line.", State: StateUnapproved, Files: 2, Listed: true,
		Sentence: "Not approved: nothing of it reaches a run."}
	deploy := Skill{URI: uriDeploy, Name: "docs/deploy", Description: "Deploy things.", State: StateChanged, Files: 5, Listed: true, Approval: 3,
		Sentence: "Changed since you approved it; the pinned version serves."}
	return &fakeBackend{
		listing: Listing{Skills: []Skill{notes, deploy}, Summary: "2 skills listed.", Invalid: []string{"skill://x: no SKILL.md"}},
		previews: map[string]Preview{
			uriNotes:  {Skill: notes, Lines: []string{"origin docs", "SKILL.md 1.2 KB sha256:aa", "scripts/x.sh 300 B sha256:bb"}, SetDigest: digest},
			uriDeploy: {Skill: deploy, Lines: []string{"origin docs", "changed: SKILL.md"}, SetDigest: digest, Approvals: []int{1, 2, 3}},
		},
		errs: map[string]error{},
	}
}

func step(t *testing.T, m kit.Modal, msgs ...tea.Msg) kit.Modal {
	t.Helper()
	for _, msg := range msgs {
		m, _, _ = m.Update(msg)
	}
	return m
}

func letter(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyEsc   = tea.KeyMsg{Type: tea.KeyEsc}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
)
