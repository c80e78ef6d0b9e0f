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
