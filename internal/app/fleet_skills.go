package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"vouch/internal/app/localskills"
	"vouch/internal/sshsign"
	"vouch/safetext"
	"vouch/skills"
	"vouch/store"
)

// RuleSignature is the scanner rule of the finding "the content changed
// after it was signed" (SPEC N5).
const RuleSignature = "signature"

// SkillManifest returns the canonical manifest of the package at path:
// the message a publisher signs (SPEC N5). It reads the package as an
// install does and writes nothing.
func SkillManifest(ctx context.Context, path string) ([]byte, error) {
	p, err := localskills.Import(ctx, path)
	if err != nil {
		var rej *skills.Rejection
		switch {
		case errors.As(err, &rej):
			return nil, Errorf(Rejected, "%s", safetext.Line(rej.Reason, 400))
		case errors.Is(err, fs.ErrNotExist):
			return nil, Wrap(Usage, localskills.NoPackage(path)) // as preview and install say it
		}
		return nil, Wrap(Usage, fmt.Errorf("read the skill package %s: %w", safetext.Line(path, 200), err))
	}
	return manifestOf(p), nil
}

// manifestOf is p's canonical manifest (skills.Manifest).
func manifestOf(p *skills.Package) []byte {
	files := make([]skills.ManifestFile, len(p.Files))
	for i, f := range p.Files {
		files[i] = skills.ManifestFile{Path: f.Path, SHA256: f.SHA256}
	}
	return skills.Manifest(p.Name, p.Version, files)
}

// sigPathOf is the signature beside a package: PKG.sig.
func sigPathOf(path string) string { return strings.TrimRight(path, "/") + ".sig" }

// SignSkill signs the manifest of the package at path with the key at
// keyPath and writes PKG.sig beside it.
func SignSkill(ctx context.Context, path, keyPath string) (string, error) {
	m, err := SkillManifest(ctx, path)
	if err != nil {
		return "", err
	}
	sig, err := signBytes(m, keyPath, sshsign.NamespaceSkill)
	if err != nil {
		return "", err
	}
	out := sigPathOf(path)
	if err := writeFile(out, sig); err != nil {
		return "", err
	}
	return out, nil
}

// judgeSignature verifies p's signature (beside the package at path, or
// SKILL.sig inside it) against allowed-signers and marks p (SPEC N5): an
// allowed signer is recorded in p.Signer and named in a warning; a key you
// do not trust and an unsigned package get a warning, and are refused when
// require-signed-skills is on; content changed after it was signed is a
// high finding, which blocks installation.
func judgeSignature(db *store.DB, path string, p *skills.Package, now time.Time) error {
	require, err := NewSettings(db).Value(SettingRequireSigned)
	if err != nil {
		return err
	}
	strict := require.Value == "on"
	sig, err := readBounded(sigPathOf(path), 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
		if i := slices.IndexFunc(p.Files, func(f skills.File) bool { return f.Path == skills.SignatureFile }); i >= 0 {
			sig = p.Files[i].Data
		}
	}
	if err != nil {
		return fmt.Errorf("read the signature of %s: %w", safetext.Line(path, 200), err)
	}
	if sig == nil {
		if strict {
			return &skills.Rejection{Reason: "the package is unsigned, and require-signed-skills is on; ask its publisher for PKG.sig ('vouch skill sign PKG --key KEY')"}
		}
		p.Warnings = append(p.Warnings, "unsigned")
		return nil
	}
	signers, _, err := allowedSigners(db)
	if err != nil {
		return err
	}
	s, err := sshsign.Verify(manifestOf(p), sig, signers, sshsign.NamespaceSkill, now)
	switch {
	case err == nil:
		p.Signer = s.String()
		p.Warnings = append(p.Warnings, fmt.Sprintf("signed by %s (%s), an allowed signer", s.Principal, s.Fingerprint))
	case errors.Is(err, sshsign.ErrMismatch):
		sum := sha256.Sum256(sig)
		p.Findings = append(p.Findings, skills.Finding{ID: "signature-" + hex.EncodeToString(sum[:4]), File: skills.SignatureFile, Rule: RuleSignature,
			Severity: skills.SeverityHigh, Detail: "the content changed after it was signed", Action: "shown"})
	case strict:
		return &skills.Rejection{Reason: fmt.Sprintf("the package is signed by a key you do not trust (%s), and require-signed-skills is on", safetext.Line(err.Error(), 200))}
	default:
		p.Warnings = append(p.Warnings, "signed by a key you do not trust: "+safetext.Line(err.Error(), 200))
	}
	return nil
}
