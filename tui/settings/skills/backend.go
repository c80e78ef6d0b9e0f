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

// InstallOptions is view.SkillInstallOptions (internal/view), as the application returns it.
type InstallOptions = view.SkillInstallOptions

// Summary is view.SkillSummary (internal/view), as the application returns it.
type Summary = view.SkillSummary

// Preview is the install preview (SPEC G4): everything the person
// decides on, shown before anything is written. Its strings come from an
// untrusted package; Lines neutralises every one.
type Preview struct {
	Source string `json:"source"`
	// Name is the package's skill name; InstallName the name it installs
	// under (after --rename) and InstallVersion the version it becomes.
	Name           string `json:"name"`
	InstallName    string `json:"install_name"`
	InstallVersion int    `json:"install_version"`
	// PackageVersion is the package's own version (metadata), if any.
	PackageVersion string `json:"package_version,omitempty"`
	SHA256         string `json:"sha256"`
	Description    string `json:"description"`
	License        string `json:"license,omitempty"`
	Compatibility  string `json:"compatibility,omitempty"`
	Instructions   string `json:"instructions"`

	Files          []PreviewFile       `json:"files"`
	Resources      []string            `json:"resources"`
	Excluded       []PreviewExcluded   `json:"excluded"`
	Definitions    []PreviewDefinition `json:"definitions"`
	RequestedTools []string            `json:"requested_tools"`
	Findings       []PreviewFinding    `json:"findings"`
	Warnings       []string            `json:"warnings"`
	Conflicts      []Conflict          `json:"conflicts"`
	// MustAccept are the IDs of the high-severity findings: the package
	// installs only when each is accepted (SPEC G8). Empty: nothing to
	// accept.
	MustAccept []string `json:"must_accept"`
}

// PreviewFile is view.SkillPreviewFile (internal/view), as the application returns it.
type PreviewFile = view.SkillPreviewFile

// PreviewExcluded is view.SkillPreviewExcluded (internal/view), as the application returns it.
type PreviewExcluded = view.SkillPreviewExcluded

// PreviewDefinition is view.SkillPreviewDefinition (internal/view), as the application returns it.
type PreviewDefinition = view.SkillPreviewDefinition

// PreviewFinding is view.SkillPreviewFinding (internal/view), as the application returns it.
type PreviewFinding = view.SkillPreviewFinding

// Conflict is view.SkillConflict (internal/view), as the application returns it.
type Conflict = view.SkillConflict

// Blocked returns the first blocking conflict, if any.
func (p Preview) Blocked() (Conflict, bool) {
	for _, c := range p.Conflicts {
		if c.Blocking {
			return c, true
		}
	}
	return Conflict{}, false
}
