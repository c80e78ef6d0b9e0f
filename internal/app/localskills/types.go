package localskills

import (
	"errors"
	"fmt"

	"vouch/internal/view"
	"vouch/store"
	"vouch/workflow"
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

// The skill views are view's (internal/view), shared with the interface.
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

// Store is what the skill catalog reads and writes of the database: the
// installed skills and the definitions they import. *store.DB is one.
type Store interface {
	Skills() ([]store.SkillVersion, error)
	SkillVersions(name string) ([]store.SkillVersion, error)
	InstallSkill(v store.SkillVersion, blobs map[string][]byte, defs []workflow.Definition) (store.SkillVersion, error)
	RemoveSkill(name string) error
	Definition(name string, rev int) (workflow.Definition, error)
	DefinitionConflict(name string) (string, error)
}
