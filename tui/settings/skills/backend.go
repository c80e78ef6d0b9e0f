package skills

import (
	"context"
	"time"
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

// InstallOptions resolve a name collision (SPEC G5): Rename installs
// the package under another skill name; NewRevision adds a new version of
// an installed skill of the same name, and lets an imported definition
// become a new revision of one the person built. Never both.
type InstallOptions struct {
	Rename      string `json:"rename,omitempty"`
	NewRevision bool   `json:"new_revision,omitempty"`
	// ExpectSHA256, when set, refuses the install unless the package read
	// now has that digest: what installs is what the preview showed.
	ExpectSHA256 string `json:"expect_sha256,omitempty"`
	// AcceptFindings are the IDs of the high-severity scanner findings
	// the person accepts (`--accept-findings`, or the preview's second
	// confirmation); without each one the install is refused (SPEC G8).
	AcceptFindings []string `json:"accept_findings,omitempty"`
}

// Summary is one installed skill version, as Settings › Skills lists
// it.
type Summary struct {
	Name        string    `json:"name"`
	Version     int       `json:"version"`
	Origin      string    `json:"origin"`
	Installed   time.Time `json:"installed"`
	SHA256      string    `json:"sha256"`
	Description string    `json:"description,omitempty"`
	Files       int       `json:"files"`
	Findings    int       `json:"findings"`
}

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

// PreviewFile is one kept file.
type PreviewFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// PreviewExcluded is a file left out, and why.
type PreviewExcluded struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// PreviewDefinition is an agent definition the package carries and
// what installing would do with it: SaveAs is the name it would be saved
// under, Action one sentence ("import", "rename: ...", "new revision ...").
type PreviewDefinition struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	SaveAs string `json:"save_as"`
	Action string `json:"action"`
}

// PreviewFinding is one scanner finding with its place.
type PreviewFinding struct {
	// ID is the scanner's stable ID, the one --accept-findings takes;
	// Severity is "high", "medium" or "low" (SPEC G8).
	ID       string `json:"id"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Detail   string `json:"detail"`
	Action   string `json:"action"`
}

// Conflict is a collision with what is installed or built (SPEC G5)
// and its resolution. A Blocking one stops the install until the person
// chooses --rename or --new-revision.
type Conflict struct {
	What       string `json:"what"`
	Resolution string `json:"resolution"`
	Blocking   bool   `json:"blocking"`
}

// Blocked returns the first blocking conflict, if any.
func (p Preview) Blocked() (Conflict, bool) {
	for _, c := range p.Conflicts {
		if c.Blocking {
			return c, true
		}
	}
	return Conflict{}, false
}
