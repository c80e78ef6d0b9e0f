package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/safetext"
	"vouch/store"
	tuiskills "vouch/tui/settings/skills"
)

var _ tuiskills.Catalog = (*backend)(nil)

// errNoSkillCatalog is the SkillCatalog's answer in a backend without a
// database.
var errNoSkillCatalog = errors.New("skills are not available here: this session has no database")

// skillError turns an errSkillRejected into its sentence alone: the TUI
// shows it as is.
func skillError(err error) error {
	if errors.Is(err, errSkillRejected) {
		return errors.New(strings.TrimPrefix(err.Error(), errSkillRejected.Error()+": "))
	}
	return err
}

// ListSkills lists the latest version of every installed skill (Settings ›
// Skills).
func (b *backend) ListSkills(context.Context) ([]tuiskills.Summary, error) {
	if b.cfg.db == nil {
		return nil, errNoSkillCatalog
	}
	vs, err := b.cfg.db.Skills()
	if err != nil {
		return nil, err
	}
	out := make([]tuiskills.Summary, len(vs))
	for i, v := range vs {
		out[i] = skillSummary(v)
	}
	return out, nil
}

// PreviewSkill imports path and says what installing it would do; it
// writes nothing (SPEC G4).
func (b *backend) PreviewSkill(ctx context.Context, path string, opts tuiskills.InstallOptions) (tuiskills.Preview, error) {
	if b.cfg.db == nil {
		return tuiskills.Preview{}, errNoSkillCatalog
	}
	path, err := expandHome(path)
	if err != nil {
		return tuiskills.Preview{}, err
	}
	p, err := loadSkill(ctx, importSkill, path)
	if err != nil {
		return tuiskills.Preview{}, skillError(err)
	}
	plan, err := planSkill(b.cfg.db, p, opts)
	if err != nil {
		return tuiskills.Preview{}, skillError(err)
	}
	return plan.preview, nil
}

// InstallSkill installs path under opts, only if it still has the digest
// the person previewed (opts.ExpectSHA256). It enables and approves
// nothing (SPEC G4).
func (b *backend) InstallSkill(ctx context.Context, path string, opts tuiskills.InstallOptions) (tuiskills.Summary, error) {
	if b.cfg.db == nil {
		return tuiskills.Summary{}, errNoSkillCatalog
	}
	path, err := expandHome(path)
	if err != nil {
		return tuiskills.Summary{}, err
	}
	v, _, err := installSkill(ctx, b.cfg.db, importSkill, path, opts)
	if err != nil {
		return tuiskills.Summary{}, skillError(err)
	}
	return skillSummary(v), nil
}

// RemoveSkill removes every version of a skill.
func (b *backend) RemoveSkill(_ context.Context, name string) error {
	if b.cfg.db == nil {
		return errNoSkillCatalog
	}
	err := b.cfg.db.RemoveSkill(name)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%s is not installed any more", safetext.Line(name, 60))
	}
	return err
}

// expandHome expands a leading "~/" in a path typed into the TUI, as a
// shell would for the command line.
func expandHome(path string) (string, error) {
	rest, ok := strings.CutPrefix(path, "~/")
	if !ok {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the home directory for %s: %w; type the full path", safetext.Line(path, 80), err)
	}
	return filepath.Join(home, rest), nil
}
