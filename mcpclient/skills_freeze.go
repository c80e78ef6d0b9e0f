package mcpclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"vouch/tool"
)

// FreezeOptions tune SkillRun.Freeze.
type FreezeOptions struct {
	// Name is the name the run lists the skill under (the resolver's
	// namespaced name); default "<server label>/<skill name>".
	Name string
	// ConfirmDynamic asks the person about this one load of a dynamic skill
	// on a server allowed dynamic skills; nil refuses.
	ConfirmDynamic func(serverLabel string, e SkillEntry) bool
}

// Freeze loads one approved server skill for the run (SPEC H4, I2-I4): it
// fetches the current entry (a set that changed since approval revokes it
// and fails the load, saying what changed), reads SKILL.md — pinned, or
// fetched, verified, scanned and pinned — checks its frontmatter against
// the approved entry, and returns the frozen skill tagged with its origin.
// Supporting files stay lazy: they are read, verified and pinned when the
// run reads them through the SkillRun. A kept or rolled-back version is
// served from its pins and the server is not asked.
func (r *SkillRun) Freeze(serverID, uri string, opts FreezeOptions) (tool.FrozenSkill, error) {
	s := r.svc
	label, err := s.label(serverID)
	if err != nil {
		return tool.FrozenSkill{}, err
	}
	rec, err := s.record(serverID, uri)
	if err != nil {
		return tool.FrozenSkill{}, err
	}
	var e SkillEntry
	pinnedOnly := rec.KeepPinned && rec.current() != nil
	if pinnedOnly {
		e = rec.current().Entry
	} else {
		var fresh SkillEntry
		fresh, rec, err = s.fresh(r.ctx, serverID, uri)
		if err != nil {
			return tool.FrozenSkill{}, err
		}
		if fresh.Dynamic {
			return r.freezeDynamic(label, serverID, fresh, opts)
		}
		k := s.evaluate(label, rec, fresh)
		if k.State != SkillApproved && k.State != SkillReview {
			return tool.FrozenSkill{}, &Error{Kind: ErrSkillNotApproved, Sentence: k.Sentence}
		}
		e = rec.current().Entry
	}
	md, err := s.readVerified(r.ctx, label, serverID, uri, e, uri, pinnedOnly)
	if err != nil {
		return tool.FrozenSkill{}, err
	}
	if err := VerifySkillFrontmatter(e, md); err != nil {
		return tool.FrozenSkill{}, err
	}
	fs := tool.FrozenSkill{Name: opts.Name, Origin: "server:" + label, Description: e.Description, SHA256: SkillSetDigest(e.Files)}
	if fs.Name == "" {
		fs.Name = label + "/" + e.Name
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range e.Files {
		ff := tool.FrozenFile{Path: strings.TrimPrefix(f.URI, e.Root()+"/"), SHA256: f.SHA256, Size: f.Size}
		r.files[f.SHA256] = frozenRef{label: label, serverID: serverID, skillURI: uri, entry: e, uri: f.URI, pinnedOnly: pinnedOnly}
		if f.URI == uri {
			fs.Instructions = ff
		} else {
			fs.Resources = append(fs.Resources, ff)
		}
	}
	return fs, nil
}

// freezeDynamic loads a dynamic skill's SKILL.md for this run only, when
// the server is allowed dynamic skills and the person confirms this load.
// Nothing is pinned or persisted: no approval covers such content.
func (r *SkillRun) freezeDynamic(label, serverID string, e SkillEntry, opts FreezeOptions) (tool.FrozenSkill, error) {
	s := r.svc
	allowed, err := s.opts.AllowDynamic(serverID)
	if err != nil {
		return tool.FrozenSkill{}, err
	}
	refuse := fmt.Sprintf("Skill %q from %q is \"dynamic\": its content cannot be verified or bound to an approval, so vouch refuses it", e.Name, label)
	switch {
	case !allowed:
		return tool.FrozenSkill{}, &Error{Kind: ErrSkillDynamic, Sentence: refuse + " unless you allow dynamic skills for this server."}
	case opts.ConfirmDynamic == nil || !opts.ConfirmDynamic(label, e):
		return tool.FrozenSkill{}, &Error{Kind: ErrSkillDynamic, Sentence: refuse + " without your confirmation of this load."}
	}
	md, err := s.m.readSkillFile(r.ctx, serverID, e.URI)
	if err != nil {
		return tool.FrozenSkill{}, err
	}
	if len(md) > MaxSkillBytes {
		return tool.FrozenSkill{}, verifyFailed("The dynamic skill %q from %q is larger than %d MiB; vouch does not load it.", e.Name, label, MaxSkillBytes>>20)
	}
	if err := VerifySkillFrontmatter(e, md); err != nil {
		return tool.FrozenSkill{}, err
	}
	if f := s.opts.Scan("SKILL.md", md); len(f) > 0 {
		return tool.FrozenSkill{}, &Error{Kind: ErrSkillFindings, Sentence: fmt.Sprintf("vouch's scanner found %s in the dynamic skill %q from %q, so it is not loaded.", f[0].Rule, e.Name, label)}
	}
	sum := sha256.Sum256(md)
	sha := hex.EncodeToString(sum[:])
	r.mu.Lock()
	r.mem[sha] = md
	r.mu.Unlock()
	name := opts.Name
	if name == "" {
		name = label + "/" + e.Name
	}
	return tool.FrozenSkill{Name: name, Origin: "server:" + label + " (dynamic, unverified)", Description: e.Description, SHA256: sha,
		Instructions: tool.FrozenFile{Path: "SKILL.md", SHA256: sha, Size: int64(len(md))}}, nil
}

// CrossRead is a request, made while acting on a skill of one server, to
// read a resource of another server. It is shown to the person naming both
// servers; only their approval of this one call lets it through.
type CrossRead struct {
	FromServerID, FromLabel string
	SkillURI, SkillName     string
	ToServerID, ToLabel     string
	URI                     string
}

// Sentence describes the request for the approval pane.
func (c CrossRead) Sentence() string {
	return fmt.Sprintf("Skill %q from server %q asks to read %s from another server, %q. Allow this one read?",
		c.SkillName, c.FromLabel, cleanText(c.URI, 200), c.ToLabel)
}

// ReadForSkill reads a resource on behalf of a skill being acted on (SPEC
// I4). A skill's reads are confined to its own server and to the files its
// approved entry lists there: those go through verification like any other.
// A read from another server is a cross-origin read: approve is asked, per
// call, with both servers named; without a yes it is refused with
// ErrCrossOrigin and nothing is sent. An approved cross-origin read returns
// ordinary resource content — it is not a skill file and not verified.
func (r *SkillRun) ReadForSkill(fromServerID, skillURI, toServerID, uri string, approve func(CrossRead) bool) ([]byte, error) {
	s := r.svc
	fromLabel, err := s.label(fromServerID)
	if err != nil {
		return nil, err
	}
	rec, err := s.record(fromServerID, skillURI)
	if err != nil {
		return nil, err
	}
	a := rec.current()
	if a == nil {
		return nil, &Error{Kind: ErrSkillNotApproved, Sentence: fmt.Sprintf("Skill %s from %q is not approved, so nothing is read for it.", cleanText(skillURI, 200), fromLabel)}
	}
	if toServerID == fromServerID {
		return s.readVerified(r.ctx, fromLabel, fromServerID, skillURI, a.Entry, uri, rec.KeepPinned)
	}
	toLabel, err := s.label(toServerID)
	if err != nil {
		return nil, err
	}
	req := CrossRead{FromServerID: fromServerID, FromLabel: fromLabel, SkillURI: skillURI, SkillName: a.Entry.Name,
		ToServerID: toServerID, ToLabel: toLabel, URI: uri}
	if approve == nil || !approve(req) {
		return nil, &Error{Kind: ErrCrossOrigin, Sentence: fmt.Sprintf("Skill %q from server %q asked to read %s from server %q; a skill reads only from its own server unless you approve that one read naming both servers, and you did not.",
			a.Entry.Name, fromLabel, cleanText(uri, 200), toLabel)}
	}
	return s.m.readResource(r.ctx, toServerID, uri)
}

// SkillRun serves the files of the server skills frozen for one run
// (tool.SkillBlobs). Local, when set, serves every other digest (the local
// skill catalog). It is safe for concurrent use.
type SkillRun struct {
	svc   *SkillService
	ctx   context.Context
	Local interface {
		SkillBlob(sha256 string) ([]byte, error)
	}

	mu    sync.Mutex
	files map[string]frozenRef
	mem   map[string][]byte // dynamic content fetched for this run only
}

type frozenRef struct {
	label, serverID, skillURI string
	entry                     SkillEntry
	uri                       string
	pinnedOnly                bool
}

// NewRun starts the freezing of server skills for one run; ctx bounds every
// server read the run makes through it.
func (s *SkillService) NewRun(ctx context.Context) *SkillRun {
	return &SkillRun{svc: s, ctx: ctx, files: map[string]frozenRef{}, mem: map[string][]byte{}}
}

// SkillBlob returns the content of one frozen file by digest: pinned, or
// fetched and verified on first read (SPEC I2, I5).
func (r *SkillRun) SkillBlob(sha string) ([]byte, error) {
	r.mu.Lock()
	data, inMem := r.mem[sha]
	ref, ok := r.files[sha]
	r.mu.Unlock()
	switch {
	case inMem:
		return data, nil
	case ok:
		return r.svc.readVerified(r.ctx, ref.label, ref.serverID, ref.skillURI, ref.entry, ref.uri, ref.pinnedOnly)
	case r.Local != nil:
		return r.Local.SkillBlob(sha)
	}
	return nil, fmt.Errorf("no frozen skill file has the digest %s", sha)
}
