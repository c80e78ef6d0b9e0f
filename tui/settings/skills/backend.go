package skills

import (
	"context"

	"vouch/internal/view"
)

// Catalog is what Settings › Skills and the skill install preview ask
// of the rest of vouch (SPEC G4, G5, L2). The Backend MAY implement it;
// without it the page says skills are not available here. Like Backend,
// every method may block on I/O and is called only from inside a tea.Cmd.
//
// Installing enables and approves nothing: no policy rule, no profile, no
// tool. A rejected package (or a conflict the options do not resolve)
// comes back as an error of one sentence and the catalog is unchanged.
type Catalog interface {
	// ListSkills returns the latest version of every installed skill, by
	// name.
	ListSkills(ctx context.Context) ([]Summary, error)
	// PreviewSkill imports the package at path without installing it and
	// says what installing it with opts would do.
	PreviewSkill(ctx context.Context, path string, opts InstallOptions) (Preview, error)
	// InstallSkill imports the package at path again and installs it with
	// opts; what it installs is what PreviewSkill showed for the same file.
	InstallSkill(ctx context.Context, path string, opts InstallOptions) (Summary, error)
	// RemoveSkill removes every version of the named skill.
	RemoveSkill(ctx context.Context, name string) error
}

// The skill views are view's (internal/view), as the application returns it.
type (
	InstallOptions    = view.SkillInstallOptions
	Summary           = view.SkillSummary
	Preview           = view.SkillPreview
	PreviewFile       = view.SkillPreviewFile
	PreviewExcluded   = view.SkillPreviewExcluded
	PreviewDefinition = view.SkillPreviewDefinition
	PreviewFinding    = view.SkillPreviewFinding
	Conflict          = view.SkillConflict
)
