package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"vouch/skills"
)

// This file binds the person's approval of a server skill to content (SPEC
// I3), pins approved content locally, and tells every state apart: never
// approved, approved, changed since approval (revoked), kept at a pinned
// version, holding scanner findings to review (SPEC I5), dynamic.

// SkillStore persists server skills; *store.DB implements it. Records are
// this package's JSON; blobs are content-addressed and re-hashed on read.
type SkillStore interface {
	ServerSkillRecord(serverID, uri string) ([]byte, error)
	UpdateServerSkillRecord(serverID, uri string, fn func(old []byte) ([]byte, error)) error
	ServerSkillRecords(serverID string) (map[string][]byte, error)
	PutServerSkillBlob(data []byte) (string, error)
	ServerSkillBlob(sha string) ([]byte, bool, error)
}

// ScanFunc is the skills scanner (skills.Scan): findings for one file.
type ScanFunc func(path string, data []byte) []skills.Finding

// SkillServiceOptions configure a SkillService.
type SkillServiceOptions struct {
	// Store persists records and pinned content (required).
	Store SkillStore
	// Scan runs on every file before its first use (required; SPEC I5).
	Scan ScanFunc
	// AllowDynamic reports the person's per-server setting for "dynamic"
	// skills (default: never allowed).
	AllowDynamic func(serverID string) (bool, error)
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// SkillService is the trust layer over the Skills extension: discovery
// with each skill's state, previews, content-bound approvals, pinning,
// keep/accept/rollback, and freezing approved skills for a run. It is safe
// for concurrent use; record updates are single store transactions.
type SkillService struct {
	m    *Manager
	opts SkillServiceOptions
}

// NewSkillService returns a SkillService over m's servers.
func NewSkillService(m *Manager, opts SkillServiceOptions) (*SkillService, error) {
	if opts.Store == nil || opts.Scan == nil {
		return nil, errors.New("a skill service needs a store and the skills scanner")
	}
	if opts.AllowDynamic == nil {
		opts.AllowDynamic = func(string) (bool, error) { return false, nil }
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &SkillService{m: m, opts: opts}, nil
}

// SkillApproval is one approval the person gave: the entry they saw, bound
// to its resource set (every URI, digest and size).
type SkillApproval struct {
	// N numbers approvals of one skill from 1, oldest first.
	N         int        `json:"n"`
	Entry     SkillEntry `json:"entry"`
	SetDigest string     `json:"set_digest"`
	At        time.Time  `json:"at"`
	// Signer is who signed the approved set's SKILL.sig, when an allowed
	// signer did (SPEC N5; SetApprovalSigner).
	Signer string `json:"signer,omitempty"`
}

// SkillRevocation records that a later listing differed from the approved
// set, which revoked the approval.
type SkillRevocation struct {
	At        time.Time   `json:"at"`
	Approval  int         `json:"approval"`
	Entry     SkillEntry  `json:"entry"`
	SetDigest string      `json:"set_digest"`
	Change    SkillChange `json:"change"`
}

// SkillFinding is a scanner finding in one pinned file.
type SkillFinding struct {
	URI     string         `json:"uri"`
	SHA256  string         `json:"sha256"`
	Finding skills.Finding `json:"finding"`
}

// skillRecord is what the store keeps per (server identity, skill URI).
type skillRecord struct {
	ServerID   string           `json:"server_id"`
	URI        string           `json:"uri"`
	Approvals  []SkillApproval  `json:"approvals,omitempty"`
	Current    int              `json:"current,omitempty"` // N in effect; 0: none
	KeepPinned bool             `json:"keep_pinned,omitempty"`
	Revoked    *SkillRevocation `json:"revoked,omitempty"`
	Findings   []SkillFinding   `json:"findings,omitempty"`
	Reviewed   []string         `json:"reviewed,omitempty"` // sha256s whose findings the person approved
	// Accepted are the IDs of high-severity findings the person accepted
	// when approving (SPEC G8, I5).
	Accepted []string `json:"accepted_findings,omitempty"`
}

func (r *skillRecord) current() *SkillApproval {
	if r == nil || r.Current <= 0 || r.Current > len(r.Approvals) {
		return nil
	}
	return &r.Approvals[r.Current-1]
}

// unreviewed returns the findings in files of e that the person has not
// approved.
func (r *skillRecord) unreviewed(e SkillEntry) []SkillFinding {
	if r == nil {
		return nil
	}
	var out []SkillFinding
	for _, f := range r.Findings {
		lf, ok := e.File(f.URI)
		if ok && lf.SHA256 == f.SHA256 && !slices.Contains(r.Reviewed, f.SHA256) {
			out = append(out, f)
		}
	}
	return out
}

// RecordBlobs lists the pinned digests a stored record refers to (for the
// store's clean-up when a server is removed).
func RecordBlobs(rec []byte) ([]string, error) {
	var r skillRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, err
	}
	var out []string
	for _, a := range r.Approvals {
		for _, f := range a.Entry.Files {
			out = append(out, f.SHA256)
		}
	}
	return out, nil
}

func decodeRecord(raw []byte, serverID, uri string) (*skillRecord, error) {
	if raw == nil {
		return &skillRecord{ServerID: serverID, URI: uri}, nil
	}
	var r skillRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("the stored record of skill %s is unreadable: %w", uri, err)
	}
	return &r, nil
}

// update applies fn to the record in one store transaction.
func (s *SkillService) update(serverID, uri string, fn func(r *skillRecord) error) (*skillRecord, error) {
	var out *skillRecord
	err := s.opts.Store.UpdateServerSkillRecord(serverID, uri, func(old []byte) ([]byte, error) {
		r, err := decodeRecord(old, serverID, uri)
		if err != nil {
			return nil, err
		}
		if err := fn(r); err != nil {
			return nil, err
		}
		out = r
		return json.Marshal(r)
	})
	return out, err
}

func (s *SkillService) record(serverID, uri string) (*skillRecord, error) {
	raw, err := s.opts.Store.ServerSkillRecord(serverID, uri)
	if err != nil {
		return nil, err
	}
	return decodeRecord(raw, serverID, uri)
}

// SkillState is where a server skill stands with the person.
type SkillState string

// Skill states.
const (
	// SkillUnapproved: listed, never approved; not usable.
	SkillUnapproved SkillState = "unapproved"
	// SkillApproved: the current listing is the approved set.
	SkillApproved SkillState = "approved"
	// SkillChanged: a listing differed from the approved set, which revoked
	// the approval; the person keeps the pinned version, accepts the update
	// or rolls back.
	SkillChanged SkillState = "changed"
	// SkillPinned: the person keeps an approved version; only its pinned
	// files are used and the server is not asked.
	SkillPinned SkillState = "pinned"
	// SkillReview: the scanner found something in a file the person has not
	// reviewed; the content is held back until they approve again.
	SkillReview SkillState = "review"
	// SkillDynamic: resources are "dynamic" (no digests); refused unless the
	// server is allowed dynamic skills, and then each load asks.
	SkillDynamic SkillState = "dynamic"
)

// ServerSkill is one skill of one server as the person sees it.
type ServerSkill struct {
	ServerID    string     `json:"server_id"`
	ServerLabel string     `json:"server_label"`
	Entry       SkillEntry `json:"entry"`
	// Listed is false for a skill known from a record or skills/get but not
	// in the server's current listing.
	Listed bool       `json:"listed"`
	State  SkillState `json:"state"`
	// Sentence says what the state means and what to do.
	Sentence string `json:"sentence"`
	// Approval is the approval in effect (nil when none).
	Approval *SkillApproval `json:"approval,omitempty"`
	// Change is what differs from the approved set (state changed).
	Change *SkillChange `json:"change,omitempty"`
	// Findings are scanner findings not yet reviewed.
	Findings []SkillFinding `json:"findings,omitempty"`
}

// Origin is the origin tag the model sees: "server:<label>".
func (k ServerSkill) Origin() string { return "server:" + k.ServerLabel }

// observe applies a fresh entry to a record: a resource set different from
// the approved one revokes the approval and records what changed (SPEC I3).
// It reports whether the record changed.
func (s *SkillService) observe(r *skillRecord, e SkillEntry) bool {
	a := r.current()
	if a == nil {
		return false
	}
	digest := SkillSetDigest(e.Files)
	if e.Dynamic {
		digest = "dynamic"
	}
	if digest == a.SetDigest || r.Revoked != nil && r.Revoked.SetDigest == digest {
		return false
	}
	r.Revoked = &SkillRevocation{At: s.opts.Now(), Approval: a.N, Entry: e, SetDigest: digest, Change: DiffSkillFiles(a.Entry.Files, e.Files)}
	return true
}

// evaluate says where a skill stands.
func (s *SkillService) evaluate(label string, r *skillRecord, e SkillEntry) ServerSkill {
	out := ServerSkill{ServerID: r.ServerID, ServerLabel: label, Entry: e, Approval: r.current()}
	name := e.Name
	switch a := r.current(); {
	case e.Dynamic && (a == nil || !r.KeepPinned):
		allowed, err := s.opts.AllowDynamic(r.ServerID)
		out.State = SkillDynamic
		if err != nil || !allowed {
			out.Sentence = fmt.Sprintf("Skill %q from %q is generated on demand (\"dynamic\"), so its content cannot be verified or bound to an approval; vouch refuses it unless you allow dynamic skills for this server.", name, label)
		} else {
			out.Sentence = fmt.Sprintf("Skill %q from %q is generated on demand (\"dynamic\"); dynamic skills are allowed for this server, and each load asks you.", name, label)
		}
	case a == nil:
		out.State = SkillUnapproved
		out.Sentence = fmt.Sprintf("Skill %q from %q is not approved; preview it and approve it to use it.", name, label)
	case r.KeepPinned:
		out.State = SkillPinned
		out.Sentence = fmt.Sprintf("Skill %q from %q stays at your approval %d; only its pinned files are used.", a.Entry.Name, label, a.N)
		if r.Revoked != nil {
			out.Change = &r.Revoked.Change
			out.Sentence += " The server has a different version (" + r.Revoked.Change.String() + "); accept it to use it."
		}
	case r.Revoked != nil:
		out.State = SkillChanged
		out.Change = &r.Revoked.Change
		out.Sentence = fmt.Sprintf("Skill %q from %q changed since you approved it (%s), so the approval is revoked: keep the pinned version, accept the update, or roll back.", a.Entry.Name, label, r.Revoked.Change.String())
	default:
		out.Findings = r.unreviewed(a.Entry)
		if len(out.Findings) > 0 {
			out.State = SkillReview
			found := fmt.Sprintf("%d things", len(out.Findings))
			if len(out.Findings) == 1 {
				found = "1 thing"
			}
			out.Sentence = fmt.Sprintf("vouch's scanner found %s in skill %q from %q; its content is held back until you review the findings and approve it again.", found, name, label)
		} else {
			out.State = SkillApproved
			out.Sentence = fmt.Sprintf("Skill %q from %q is approved for its current files.", name, label)
		}
	}
	return out
}

func (s *SkillService) label(serverID string) (string, error) {
	st, ok := s.m.Server(serverID)
	if !ok {
		return "", errUnknownServer()
	}
	return st.Config.Name, nil
}

// List lists one server's skills with their states (SPEC I1): the
// listing, observed against stored approvals (a changed set revokes), plus
// skills with a stored record that the listing does not carry (a partial
// listing never hides them). It reads no file. On a failed or partial
// listing, what arrived is returned with the listing's Problem and err.
func (s *SkillService) List(ctx context.Context, serverID string) ([]ServerSkill, SkillListing, error) {
	listing, lerr := s.m.ListSkills(ctx, serverID)
	label := listing.ServerLabel
	var out []ServerSkill
	listed := map[string]bool{}
	for _, e := range listing.Skills {
		listed[e.URI] = true
		r, err := s.update(serverID, e.URI, func(r *skillRecord) error {
			if !s.observe(r, e) {
				return errUnchanged
			}
			return nil
		})
		if errors.Is(err, errUnchanged) {
			r, err = s.record(serverID, e.URI)
		}
		if err != nil {
			return out, listing, err
		}
		k := s.evaluate(label, r, e)
		k.Listed = true
		out = append(out, k)
	}
	recs, err := s.opts.Store.ServerSkillRecords(serverID)
	if err != nil {
		return out, listing, err
	}
	for _, uri := range sortedKeys(recs) {
		if listed[uri] {
			continue
		}
		r, err := decodeRecord(recs[uri], serverID, uri)
		if err != nil {
			return out, listing, err
		}
		a := r.current()
		if a == nil {
			continue
		}
		k := s.evaluate(label, r, a.Entry)
		k.Sentence += " It is not in the server's current listing."
		out = append(out, k)
	}
	return out, listing, lerr
}

// errUnchanged aborts a record update that would write nothing.
var errUnchanged = errors.New("unchanged")

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fresh fetches the current entry with skills/get and applies it to the
// record.
func (s *SkillService) fresh(ctx context.Context, serverID, uri string) (SkillEntry, *skillRecord, error) {
	e, err := s.m.GetSkill(ctx, serverID, uri)
	if err != nil {
		return SkillEntry{}, nil, err
	}
	r, err := s.update(serverID, uri, func(r *skillRecord) error {
		if !s.observe(r, e) {
			return errUnchanged
		}
		return nil
	})
	if errors.Is(err, errUnchanged) {
		r, err = s.record(serverID, uri)
	}
	if err != nil {
		return SkillEntry{}, nil, err
	}
	return e, r, nil
}

// Approve approves the skill's current resource set, which must be the set
// the person previewed (setDigest from SkillPreview). A listing that changed
// in between is refused: nothing approves what the person did not see.
// Findings recorded for files of this set count as reviewed, since the
// preview showed them — except high-severity ones (SPEC G8, I5): unless
// each such finding's ID is in accept, nothing is approved and the error
// (ErrSkillFindings) names the IDs. Dynamic skills cannot be approved for
// good.
func (s *SkillService) Approve(ctx context.Context, serverID, uri, setDigest string, accept ...string) (ServerSkill, error) {
	label, err := s.label(serverID)
	if err != nil {
		return ServerSkill{}, err
	}
	e, _, err := s.fresh(ctx, serverID, uri)
	if err != nil {
		return ServerSkill{}, err
	}
	if e.Dynamic {
		return ServerSkill{}, &Error{Kind: ErrSkillDynamic, Sentence: fmt.Sprintf("Skill %q from %q is \"dynamic\", so no approval can be bound to its content; allow dynamic skills for this server instead, and each load will ask you.", e.Name, label)}
	}
	digest := SkillSetDigest(e.Files)
	if digest != setDigest {
		return ServerSkill{}, &Error{Kind: ErrSkillNotApproved, Sentence: fmt.Sprintf("Skill %q from %q changed since the preview you approved, so nothing was approved; preview it again.", e.Name, label)}
	}
	r, err := s.update(serverID, uri, func(r *skillRecord) error {
		if err := checkAccepted(r.unreviewed(e), accept, e.Name, label); err != nil {
			return err
		}
		for _, id := range accept {
			if !slices.Contains(r.Accepted, id) {
				r.Accepted = append(r.Accepted, id)
			}
		}
		if a := r.current(); a == nil || a.SetDigest != digest {
			r.Approvals = append(r.Approvals, SkillApproval{N: len(r.Approvals) + 1, Entry: e, SetDigest: digest, At: s.opts.Now()})
			r.Current = len(r.Approvals)
		} else {
			a.Entry = e
		}
		r.Revoked, r.KeepPinned = nil, false
		for _, f := range r.Findings {
			if lf, ok := e.File(f.URI); ok && lf.SHA256 == f.SHA256 && !slices.Contains(r.Reviewed, f.SHA256) {
				r.Reviewed = append(r.Reviewed, f.SHA256)
			}
		}
		return nil
	})
	if err != nil {
		return ServerSkill{}, err
	}
	return s.evaluate(label, r, e), nil
}

// Keep keeps the approval in effect after a change revoked it: only its
// pinned files are used, and the server is not asked for this skill.
func (s *SkillService) Keep(serverID, uri string) (ServerSkill, error) {
	return s.pinTo(serverID, uri, 0)
}

// Rollback makes an earlier approval (n, from 1) the one in effect, served
// from its pinned files only.
func (s *SkillService) Rollback(serverID, uri string, n int) (ServerSkill, error) {
	if n <= 0 {
		return ServerSkill{}, &Error{Kind: ErrSkillNotApproved, Sentence: "Name the approval to roll back to by its number (1 is the first)."}
	}
	return s.pinTo(serverID, uri, n)
}

func (s *SkillService) pinTo(serverID, uri string, n int) (ServerSkill, error) {
	label, err := s.label(serverID)
	if err != nil {
		return ServerSkill{}, err
	}
	r, err := s.update(serverID, uri, func(r *skillRecord) error {
		if n == 0 {
			n = r.Current
		}
		if n <= 0 || n > len(r.Approvals) {
			return &Error{Kind: ErrSkillNotApproved, Sentence: fmt.Sprintf("Skill %s from %q has no approval %d to keep or roll back to.", cleanText(uri, 200), label, n)}
		}
		r.Current, r.KeepPinned = n, true
		return nil
	})
	if err != nil {
		return ServerSkill{}, err
	}
	a := r.current()
	k := s.evaluate(label, r, a.Entry)
	missing := 0
	for _, f := range a.Entry.Files {
		if _, ok, err := s.opts.Store.ServerSkillBlob(f.SHA256); err != nil || !ok {
			missing++
		}
	}
	if missing > 0 {
		were := "were never pinned and stay"
		if missing == 1 {
			were = "was never pinned and stays"
		}
		k.Sentence += fmt.Sprintf(" %d of its %d files %s unavailable.", missing, len(a.Entry.Files), were)
	}
	return k, nil
}

// StoredServerSkills returns the skills of one server that have a stored
// approval, evaluated from the records alone — no network, for listings
// that must not wait on a server (`vouch skill list`). label is the
// server's name.
func StoredServerSkills(st SkillStore, serverID, label string) ([]ServerSkill, error) {
	recs, err := st.ServerSkillRecords(serverID)
	if err != nil {
		return nil, err
	}
	svc := &SkillService{opts: SkillServiceOptions{Store: st, AllowDynamic: func(string) (bool, error) { return false, nil }}}
	var out []ServerSkill
	for _, uri := range sortedKeys(recs) {
		r, err := decodeRecord(recs[uri], serverID, uri)
		if err != nil {
			return nil, err
		}
		a := r.current()
		if a == nil {
			continue
		}
		e := a.Entry
		if r.Revoked != nil {
			e = r.Revoked.Entry
		}
		out = append(out, svc.evaluate(label, r, e))
	}
	return out, nil
}

// checkAccepted is the rule of SPEC G8 for a server skill: every
// high-severity finding not yet reviewed must be accepted by its ID, and
// an accepted ID must name one of them, so a typo never reads as consent.
func checkAccepted(pending []SkillFinding, accept []string, name, label string) error {
	fs := make([]skills.Finding, len(pending))
	for i, f := range pending {
		fs[i] = f.Finding
	}
	for _, id := range accept {
		if !slices.ContainsFunc(fs, func(f skills.Finding) bool { return f.ID == id }) {
			return &Error{Kind: ErrSkillFindings, Sentence: fmt.Sprintf("%q is not a finding of skill %q from %q awaiting review, so nothing was approved; copy the IDs from the preview.", cleanText(id, 60), name, label)}
		}
	}
	block := skills.Blocking(fs, accept)
	if len(block) == 0 {
		return nil
	}
	var ids []string
	for _, f := range block {
		if !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	return &Error{Kind: ErrSkillFindings, Sentence: fmt.Sprintf("Skill %q from %q has %d high-severity scanner finding(s) (first: %s line %d, %s), so nothing was approved; read them in the preview and approve with --accept-findings %s.",
		name, label, len(ids), cleanText(block[0].File, 100), block[0].Line, block[0].Rule, strings.Join(ids, ","))}
}
