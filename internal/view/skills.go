package view

import (
	"time"
)

// SkillSummary is one installed skill version as a listing shows it.
type SkillSummary struct {
	Name        string    `json:"name"`
	Version     int       `json:"version"`
	Origin      string    `json:"origin"`
	Installed   time.Time `json:"installed"`
	SHA256      string    `json:"sha256"`
	Description string    `json:"description,omitempty"`
	Files       int       `json:"files"`
	Findings    int       `json:"findings"`
}

// SkillPreviewFile is one kept file.
type SkillPreviewFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// SkillPreviewExcluded is a file left out, and why.
type SkillPreviewExcluded struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// SkillPreviewDefinition is an agent definition the package carries and what
// installing would do with it: SaveAs is the name it would be saved
// under, Action one sentence ("import", "rename: ...", "new revision ...").
type SkillPreviewDefinition struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	SaveAs string `json:"save_as"`
	Action string `json:"action"`
}

// SkillPreviewFinding is one scanner finding with its place.
type SkillPreviewFinding struct {
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

// SkillConflict is a collision with what is installed or built (SPEC G5) and
// its resolution. A Blocking one stops the install until the person
// chooses --rename or --new-revision.
type SkillConflict struct {
	What       string `json:"what"`
	Resolution string `json:"resolution"`
	Blocking   bool   `json:"blocking"`
}

// SkillInstallOptions resolve a name collision (SPEC G5): Rename installs the
// package under another skill name; NewRevision adds a new version of an
// installed skill of the same name, and lets an imported definition
// become a new revision of one the person built. Never both.
type SkillInstallOptions struct {
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

// SkillPreview is the install preview (SPEC G4): everything the person
// decides on, before anything is written. Its strings come from an
// untrusted package: whoever shows them neutralises them.
type SkillPreview struct {
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

	Files          []SkillPreviewFile       `json:"files"`
	Resources      []string                 `json:"resources"`
	Excluded       []SkillPreviewExcluded   `json:"excluded"`
	Definitions    []SkillPreviewDefinition `json:"definitions"`
	RequestedTools []string                 `json:"requested_tools"`
	Findings       []SkillPreviewFinding    `json:"findings"`
	Warnings       []string                 `json:"warnings"`
	Conflicts      []SkillConflict          `json:"conflicts"`
	// MustAccept are the IDs of the high-severity findings: the package
	// installs only when each is accepted (SPEC G8). Empty: nothing to
	// accept.
	MustAccept []string `json:"must_accept"`
}

// Blocked returns the first conflict that blocks installing the package as
// previewed (SPEC G5).
func (p SkillPreview) Blocked() (SkillConflict, bool) {
	for _, c := range p.Conflicts {
		if c.Blocking {
			return c, true
		}
	}
	return SkillConflict{}, false
}
