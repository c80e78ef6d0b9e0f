package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"vouch/internal/sshsign"
	"vouch/mcpclient"
	"vouch/safetext"
)

// A server skill may carry SKILL.sig in its listing (SPEC N5): it is read
// verified against its listed digest, checked over the skill's manifest
// built from the listed digests, and its signer shown in the preview. A
// signature that does not match is a high finding the approval must
// accept by ID.

// judgeSignature sets p.Signature and, for a signature that does not
// match the listed files, adds its finding's ID to p.MustAccept.
func (s *ServerSkills) judgeSignature(ctx context.Context, serverID string, p *mcpclient.SkillPreview) error {
	sentence, mismatch, _, err := s.signature(ctx, serverID, p.Entry)
	if err != nil {
		return err
	}
	p.Signature = sentence
	if mismatch != "" {
		p.MustAccept = append(p.MustAccept, mismatch)
	}
	return nil
}

// admitSignature refuses to approve a skill whose signature does not match
// its files unless accept names that finding, and returns accept without
// it (the server skill service knows only its scanner's findings) and the
// allowed signer who signed it ("" when none did).
func (s *ServerSkills) admitSignature(ctx context.Context, serverID, uri string, accept []string) ([]string, string, error) {
	e, err := s.svc.Entry(ctx, serverID, uri)
	if err != nil {
		return nil, "", ServerSkillError(err)
	}
	_, mismatch, signer, err := s.signature(ctx, serverID, e)
	if err != nil || mismatch == "" {
		return accept, signer, err
	}
	if !slices.Contains(accept, mismatch) {
		return nil, "", Errorf(Rejected, "the content of %s changed after it was signed; accept the finding %s to approve it anyway", safetext.Line(e.Name, 60), mismatch)
	}
	return slices.DeleteFunc(slices.Clone(accept), func(id string) bool { return id == mismatch }), "", nil
}

// signature verifies e's SKILL.sig: the sentence the preview shows, the
// finding ID of a signature that does not match ("" otherwise) and the
// allowed signer ("" when none).
func (s *ServerSkills) signature(ctx context.Context, serverID string, e mcpclient.SkillEntry) (sentence, mismatch, signer string, err error) {
	sig, ok, err := s.svc.ReadSignature(ctx, serverID, e)
	if err != nil {
		return "", "", "", ServerSkillError(err)
	}
	if !ok {
		return "unsigned", "", "", nil
	}
	signers, _, err := allowedSigners(s.db)
	if err != nil {
		return "", "", "", err
	}
	who, err := sshsign.Verify(e.Manifest(frontmatterVersion(e.Frontmatter)), sig, signers, sshsign.NamespaceSkill, time.Now())
	switch {
	case err == nil:
		return fmt.Sprintf("signed by %s (%s), an allowed signer", who.Principal, who.Fingerprint), "", who.String(), nil
	case errors.Is(err, sshsign.ErrMismatch):
		sum := sha256.Sum256(sig)
		id := "signature-" + hex.EncodeToString(sum[:4])
		return fmt.Sprintf("the content changed after it was signed (a high finding, ID %s)", id), id, "", nil
	}
	return "signed by a key you do not trust: " + safetext.Line(err.Error(), 200), "", "", nil
}

// frontmatterVersion is frontmatter's metadata.version, "" when none.
func frontmatterVersion(fm json.RawMessage) string {
	var v struct {
		Metadata map[string]any `json:"metadata"`
	}
	if json.Unmarshal(fm, &v) != nil {
		return ""
	}
	s, _ := v.Metadata["version"].(string)
	return s
}
