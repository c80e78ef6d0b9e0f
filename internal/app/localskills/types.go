package localskills

import (
	"errors"
	"fmt"

	"vouch/internal/view"
)

// ErrRejected marks a package or install the person must change (the
// command line exits 3, SPEC M): errors.Is(err, ErrRejected) holds, and
// the error's text is the one sentence alone.
var ErrRejected = errors.New("skill rejected")

// ErrNoCatalog is the Catalog's answer in a session without a database.
var ErrNoCatalog = errors.New("skills are not available here: this session has no database")

// rejection is an ErrRejected with its sentence.
type rejection struct{ sentence string }

func (r *rejection) Error() string        { return r.sentence }
func (r *rejection) Is(target error) bool { return target == ErrRejected }

// rejected returns a one-sentence reason as an ErrRejected.
func rejected(format string, args ...any) error {
	return &rejection{sentence: fmt.Sprintf(format, args...)}
}

// InstallOptions is view.SkillInstallOptions (internal/view), shared with the interface.
type InstallOptions = view.SkillInstallOptions

// Summary is view.SkillSummary (internal/view), shared with the interface.
type Summary = view.SkillSummary

// Preview is the install preview (SPEC G4): everything the person
// decides on, before anything is written. Its strings come from an
// untrusted package: whoever shows them neutralises them.
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

// PreviewFile is view.SkillPreviewFile (internal/view), shared with the interface.
type PreviewFile = view.SkillPreviewFile

// PreviewExcluded is view.SkillPreviewExcluded (internal/view), shared with the interface.
type PreviewExcluded = view.SkillPreviewExcluded

// PreviewDefinition is view.SkillPreviewDefinition (internal/view), shared with the interface.
type PreviewDefinition = view.SkillPreviewDefinition

// PreviewFinding is view.SkillPreviewFinding (internal/view), shared with the interface.
type PreviewFinding = view.SkillPreviewFinding

// Conflict is view.SkillConflict (internal/view), shared with the interface.
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
