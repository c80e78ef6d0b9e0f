package mcpclient

import (
	"context"
	"errors"
	"strings"

	"vouch/skills"
)

// ReadSignature reads the SKILL.sig that entry e lists (SPEC N5), verified
// against its listed digest and size (SPEC I2); ok is false when e lists
// none. It is neither scanned nor pinned: a signature never reaches a
// model. Verifying it against the manifest is the caller's.
func (s *SkillService) ReadSignature(ctx context.Context, serverID string, e SkillEntry) (sig []byte, ok bool, err error) {
	uri := e.Root() + "/" + skills.SignatureFile
	if _, listed := e.File(uri); !listed || e.Dynamic {
		return nil, false, nil
	}
	data, err := s.m.readSkillFile(ctx, serverID, uri)
	if err != nil {
		return nil, false, err
	}
	if err := VerifySkillFile(e, uri, data); err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// Manifest is e's canonical manifest (skills.Manifest): its name, the
// frontmatter's metadata.version, and every listed file by its path in
// the skill.
func (e SkillEntry) Manifest(version string) []byte {
	files := make([]skills.ManifestFile, 0, len(e.Files))
	for _, f := range e.Files {
		files = append(files, skills.ManifestFile{Path: strings.TrimPrefix(f.URI, e.Root()+"/"), SHA256: f.SHA256})
	}
	return skills.Manifest(e.Name, version, files)
}

// Entry fetches the skill's current entry (skills/get) without touching
// its record.
func (s *SkillService) Entry(ctx context.Context, serverID, uri string) (SkillEntry, error) {
	return s.m.GetSkill(ctx, serverID, uri)
}

// SetApprovalSigner records who signed the set of the approval in effect,
// when its digest is setDigest (SPEC N5: kept with the approval).
func (s *SkillService) SetApprovalSigner(serverID, uri, setDigest, signer string) error {
	_, err := s.update(serverID, uri, func(r *skillRecord) error {
		if a := r.current(); a != nil && a.SetDigest == setDigest {
			a.Signer = signer
			return nil
		}
		return errUnchanged
	})
	if errors.Is(err, errUnchanged) {
		return nil
	}
	return err
}
