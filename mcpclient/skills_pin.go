package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// This file reads a skill's files for the person or a run: pinned content
// when present, else fetched, verified against the approved entry (SPEC I2),
// scanned (SPEC I5) and pinned; content with unreviewed findings is held
// back.

// readVerified returns one file of entry e: pinned content (re-hashed by
// the store) when present, else — unless pinnedOnly — read from the server,
// verified against e (SPEC I2), scanned (SPEC I5) and pinned. Content with
// findings the person has not reviewed is held back.
func (s *SkillService) readVerified(ctx context.Context, label, serverID, skillURI string, e SkillEntry, uri string, pinnedOnly bool) ([]byte, error) {
	f, ok := e.File(uri)
	if !ok {
		return nil, verifyFailed("The file %q is not listed in the approved skill %q from %q, so vouch does not read it.", cleanText(uri, 200), e.Name, label)
	}
	data, pinned, err := s.opts.Store.ServerSkillBlob(f.SHA256)
	if err != nil {
		return nil, err
	}
	if pinned {
		if int64(len(data)) != f.Size {
			return nil, verifyFailed("The pinned copy of %q does not have the approved size; vouch does not use it.", cleanText(uri, 200))
		}
	} else {
		if pinnedOnly {
			return nil, &Error{Kind: ErrSkillNotApproved, Sentence: fmt.Sprintf("The file %q of skill %q was never pinned, and you keep the pinned version; accept the update to read it from %q.", cleanText(uri, 200), e.Name, label)}
		}
		data, err = s.m.readSkillFile(ctx, serverID, uri)
		if err != nil {
			return nil, err
		}
		if err := VerifySkillFile(e, uri, data); err != nil {
			return nil, err
		}
		findings := s.opts.Scan(strings.TrimPrefix(uri, e.Root()+"/"), data)
		if _, err := s.opts.Store.PutServerSkillBlob(data); err != nil {
			return nil, err
		}
		if len(findings) > 0 {
			_, err := s.update(serverID, skillURI, func(r *skillRecord) error {
				for _, fd := range findings {
					r.Findings = append(r.Findings, SkillFinding{URI: uri, SHA256: f.SHA256, Finding: fd})
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	r, err := s.record(serverID, skillURI)
	if err != nil {
		return nil, err
	}
	for _, fd := range r.Findings {
		if fd.SHA256 == f.SHA256 && !slices.Contains(r.Reviewed, f.SHA256) {
			return nil, &Error{Kind: ErrSkillFindings, Sentence: fmt.Sprintf("vouch's scanner found %s in %q of skill %q from %q, so its content is held back; preview the skill to review the findings and approve it again.",
				fd.Finding.Rule, cleanText(uri, 200), e.Name, label)}
		}
	}
	return data, nil
}

// PinReport says what Pin fetched.
type PinReport struct {
	Pinned   int            `json:"pinned"`
	Findings []SkillFinding `json:"findings,omitempty"`
}

// Pin fetches, verifies, scans and pins every file of the approved set
// now, at the person's request (otherwise files are fetched only when a run
// reads them). Files with findings are pinned but held back until reviewed.
func (s *SkillService) Pin(ctx context.Context, serverID, uri string) (PinReport, error) {
	label, err := s.label(serverID)
	if err != nil {
		return PinReport{}, err
	}
	e, r, err := s.fresh(ctx, serverID, uri)
	if err != nil {
		return PinReport{}, err
	}
	k := s.evaluate(label, r, e)
	if k.State != SkillApproved && k.State != SkillReview {
		return PinReport{}, &Error{Kind: ErrSkillNotApproved, Sentence: k.Sentence}
	}
	var rep PinReport
	for _, f := range e.Files {
		_, err := s.readVerified(ctx, label, serverID, uri, e, f.URI, false)
		switch {
		case errors.Is(err, ErrSkillFindings):
		case err != nil:
			return rep, err
		}
		rep.Pinned++
	}
	r, err = s.record(serverID, uri)
	if err != nil {
		return rep, err
	}
	rep.Findings = r.unreviewed(e)
	return rep, nil
}
