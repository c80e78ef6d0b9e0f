package localskills

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/safetext"
	"vouch/store"
)

// Catalog is the installed skills of one database as Settings › Skills
// asks for them: paths typed by the person (a leading "~/" is the home
// folder), rejections as their sentence alone, and ErrNoCatalog without a
// database.
type Catalog struct {
	db   Store
	load Loader
}

// NewCatalog returns the catalog of db (nil: every call answers
// ErrNoCatalog), reading packages with load (Import in production).
func NewCatalog(db Store, load Loader) *Catalog { return &Catalog{db: db, load: load} }

// ListSkills lists the latest version of every installed skill (Settings ›
// Skills).
func (c *Catalog) ListSkills(context.Context) ([]Summary, error) {
	if c.db == nil {
		return nil, ErrNoCatalog
	}
	vs, err := c.db.Skills()
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(vs))
	for i, v := range vs {
		out[i] = SummaryOf(v)
	}
	return out, nil
}

// PreviewSkill imports path and says what installing it would do; it
// writes nothing (SPEC G4).
func (c *Catalog) PreviewSkill(ctx context.Context, path string, opts InstallOptions) (Preview, error) {
	if c.db == nil {
		return Preview{}, ErrNoCatalog
	}
	path, err := ExpandHome(path)
	if err != nil {
		return Preview{}, err
	}
	plan, err := Prepare(ctx, c.db, c.load, path, opts)
	if err != nil {
		return Preview{}, err
	}
	return plan.Preview, nil
}

// InstallSkill installs path under opts, only if it still has the digest
// the person previewed (opts.ExpectSHA256). It enables and approves
// nothing (SPEC G4).
func (c *Catalog) InstallSkill(ctx context.Context, path string, opts InstallOptions) (Summary, error) {
	if c.db == nil {
		return Summary{}, ErrNoCatalog
	}
	path, err := ExpandHome(path)
	if err != nil {
		return Summary{}, err
	}
	v, _, err := Install(ctx, c.db, c.load, path, opts)
	if err != nil {
		return Summary{}, err
	}
	return SummaryOf(v), nil
}

// RemoveSkill removes every version of a skill.
func (c *Catalog) RemoveSkill(_ context.Context, name string) error {
	if c.db == nil {
		return ErrNoCatalog
	}
	err := c.db.RemoveSkill(name)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%s is not installed any more", safetext.Line(name, 60))
	}
	return err
}

// ExpandHome expands a leading "~/" in a path typed into the interface,
// as a shell would for the command line.
func ExpandHome(path string) (string, error) {
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
