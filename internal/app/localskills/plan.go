package localskills

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"vouch/safetext"
	"vouch/skills"
	"vouch/store"
	"vouch/workflow"
)

// Loader imports a package from a local path; Import in production, and
// it never writes anything.
type Loader func(ctx context.Context, path string) (*skills.Package, error)

// Import reads a package with the default limits (SPEC G1–G3).
func Import(ctx context.Context, path string) (*skills.Package, error) {
	return skills.Import(ctx, path, skills.DefaultLimits())
}

// Plan is what installing one imported package would write: the version
// and its file contents, the definitions under the names they would be
// saved as, and the Preview the person decides on (SPEC G4, G5).
type Plan struct {
	version store.SkillVersion
	blobs   map[string][]byte
	defs    []workflow.Definition
	Preview Preview
}

// read imports path and turns a *skills.Rejection into an ErrRejected
// whose text is the importer's sentence, neutralised.
func read(ctx context.Context, load Loader, path string) (*skills.Package, error) {
	p, err := load(ctx, path)
	var rej *skills.Rejection
	switch {
	case errors.As(err, &rej):
		return nil, rejected("%s", safetext.Line(rej.Reason, 400))
	case errors.Is(err, fs.ErrNotExist):
		// One sentence, not the chain of stat errors (issue 28 item 15);
		// still a not-exist error, which a command answers with exit 2.
		return nil, NoPackage(path)
	case err != nil:
		return nil, fmt.Errorf("read the skill package %s: %w; check the path", safetext.Line(path, 200), err)
	}
	return p, nil
}

// Prepare imports path with load and plans it under opts (PlanPackage);
// it writes nothing (SPEC G4).
func Prepare(ctx context.Context, db Store, load Loader, path string, opts InstallOptions) (Plan, error) {
	p, err := read(ctx, load, path)
	if err != nil {
		return Plan{}, err
	}
	return PlanPackage(db, p, opts)
}

// PlanPackage decides how p would install under opts (SPEC G5): the skill
// name (a collision needs --new-revision or --rename), and for each
// definition whether it is imported as is, updates an unedited earlier
// import, becomes a new revision of one the person built (only with
// --new-revision), or is renamed — never saved over one the person edited.
func PlanPackage(db Store, p *skills.Package, opts InstallOptions) (Plan, error) {
	if opts.Rename != "" && opts.NewRevision {
		return Plan{}, rejected("choose either --rename or --new-revision, not both")
	}
	name := p.Name
	if opts.Rename != "" {
		if !workflow.ValidName(opts.Rename) {
			return Plan{}, rejected("the new name %q must be lower-case letters, digits and hyphens, at most %d characters", safetext.Line(opts.Rename, 80), workflow.MaxNameLen)
		}
		name = opts.Rename
	}
	origin := "local:" + p.Source
	if abs, err := filepath.Abs(p.Source); err == nil {
		origin = "local:" + abs
	}
	plan := Plan{
		version: store.SkillVersion{
			Name: name, SHA256: p.SHA256, Origin: origin,
			Description: p.Description, License: p.License, Compatibility: p.Compatibility, Metadata: p.Metadata,
			Resources: p.Resources, RequestedTools: p.RequestedTools, Warnings: p.Warnings, Signer: p.Signer,
		},
		blobs: map[string][]byte{},
	}
	for _, f := range p.Files {
		plan.version.Files = append(plan.version.Files, store.SkillFile{Path: f.Path, SHA256: f.SHA256, Size: f.Size})
		plan.blobs[f.SHA256] = f.Data
	}
	for _, e := range p.Excluded {
		plan.version.Excluded = append(plan.version.Excluded, store.SkillExcluded{Path: e.Path, Reason: e.Reason})
	}
	for _, f := range p.Findings {
		plan.version.Findings = append(plan.version.Findings, store.SkillFinding{ID: f.ID, File: f.File, Line: f.Line, Rule: f.Rule,
			Severity: f.Severity, Detail: f.Detail, Action: f.Action})
	}
	plan.version.AcceptedFindings = append([]string(nil), opts.AcceptFindings...)
	plan.Preview = previewOf(p, name)

	installed, err := db.SkillVersions(name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		plan.Preview.InstallVersion = 1
	case err != nil:
		return Plan{}, err
	default:
		last := installed[len(installed)-1]
		plan.Preview.InstallVersion = last.Version + 1
		c := Conflict{What: fmt.Sprintf("a skill named %s is installed (version %d)", name, last.Version)}
		if last.SHA256 == p.SHA256 {
			c.What += " with the same content"
		}
		if opts.NewRevision {
			c.Resolution = fmt.Sprintf("installs as version %d; version %d stays", last.Version+1, last.Version)
		} else {
			c.Blocking = true
			c.Resolution = fmt.Sprintf("install with --new-revision to add version %d, or --rename NEW to install it under another name", last.Version+1)
		}
		plan.Preview.Conflicts = append(plan.Preview.Conflicts, c)
	}

	taken := map[string]bool{}
	for _, d := range p.Definitions {
		d, pd, c, err := planDefinition(db, d, name, p.SHA256, opts, taken)
		if err != nil {
			return Plan{}, err
		}
		taken[d.Name] = true
		plan.defs = append(plan.defs, d)
		plan.Preview.Definitions = append(plan.Preview.Definitions, pd)
		if c != nil {
			plan.Preview.Conflicts = append(plan.Preview.Conflicts, *c)
		}
	}
	return plan, nil
}

// planDefinition returns d as it would be saved, its preview line and the
// conflict it met, if any.
func planDefinition(db Store, d workflow.Definition, skill, sum string, opts InstallOptions, taken map[string]bool) (workflow.Definition, PreviewDefinition, *Conflict, error) {
	d.Origin = "skill:" + skill + "@" + sum
	d.Revision, d.EditedByPerson = 0, false
	pd := PreviewDefinition{Name: d.Name, Kind: string(d.Kind), SaveAs: d.Name, Action: "import as " + d.Name}
	kind, err := db.DefinitionConflict(d.Name)
	if err != nil {
		return d, pd, nil, err
	}
	if kind == "" && !taken[d.Name] {
		return d, pd, nil, nil
	}
	var existing workflow.Definition
	if kind != "" {
		if existing, err = db.Definition(d.Name, 0); err != nil {
			return d, pd, nil, err
		}
	}
	fromThisSkill := strings.HasPrefix(existing.Origin, "skill:"+skill+"@")
	builtByPerson := !strings.HasPrefix(existing.Origin, "skill:")
	c := &Conflict{}
	switch {
	case taken[d.Name]:
		c.What = fmt.Sprintf("the package names definition %s twice", d.Name)
	case kind == "package" && fromThisSkill:
		pd.Action = fmt.Sprintf("update: new revision %d of the earlier import, which nobody edited", existing.Revision+1)
		return d, pd, nil, nil
	case kind == "package":
		c.What = fmt.Sprintf("definition %s was imported by another skill", d.Name)
	case builtByPerson && opts.NewRevision:
		c.What = fmt.Sprintf("you built a definition named %s", d.Name)
		c.Resolution = fmt.Sprintf("saved as its revision %d (--new-revision); revision %d stays", existing.Revision+1, existing.Revision)
		pd.Action = "new revision of your definition " + d.Name
		return d, pd, c, nil
	case builtByPerson:
		c.What = fmt.Sprintf("you built a definition named %s", d.Name)
	default:
		c.What = fmt.Sprintf("you edited definition %s after it was imported; an update never replaces it", d.Name)
	}
	saveAs, err := freeDefinitionName(db, d.Name, skill, taken)
	if err != nil {
		return d, pd, nil, err
	}
	c.Resolution = "saved as " + saveAs + "; yours is untouched"
	if builtByPerson && kind == "person" {
		c.Resolution += " (install with --new-revision to save it as a new revision instead)"
	}
	d.Name, pd.SaveAs, pd.Action = saveAs, saveAs, "rename: saved as "+saveAs
	return d, pd, c, nil
}

// freeDefinitionName returns "<name>-<skill>", or that with "-2", "-3", …,
// cut to a legal length, that no definition has and the package does not
// use.
func freeDefinitionName(db Store, name, skill string, taken map[string]bool) (string, error) {
	base := name + "-" + skill
	for i := 1; i < 1000; i++ {
		suffix := ""
		if i > 1 {
			suffix = fmt.Sprintf("-%d", i)
		}
		cand := base
		if len(cand)+len(suffix) > workflow.MaxNameLen {
			cand = strings.TrimRight(cand[:workflow.MaxNameLen-len(suffix)], "-")
		}
		cand += suffix
		if taken[cand] || !workflow.ValidName(cand) {
			continue
		}
		kind, err := db.DefinitionConflict(cand)
		if err != nil {
			return "", err
		}
		if kind == "" {
			return cand, nil
		}
	}
	return "", rejected("no free name for definition %s; rename or remove your definitions named %s-%s…", name, name, skill)
}

// previewOf fills the fields of the preview that come from the package.
func previewOf(p *skills.Package, name string) Preview {
	pv := Preview{
		Source: p.Source, Name: p.Name, InstallName: name, PackageVersion: p.Version, SHA256: p.SHA256,
		Description: p.Description, License: p.License, Compatibility: p.Compatibility, Instructions: p.Instructions,
		Files: []PreviewFile{}, Resources: append([]string{}, p.Resources...), Excluded: []PreviewExcluded{},
		Definitions: []PreviewDefinition{}, RequestedTools: append([]string{}, p.RequestedTools...),
		Findings: []PreviewFinding{}, Warnings: append([]string{}, p.Warnings...), Conflicts: []Conflict{},
		MustAccept: []string{},
	}
	for _, f := range p.Files {
		pv.Files = append(pv.Files, PreviewFile{Path: f.Path, SHA256: f.SHA256, Size: f.Size})
	}
	for _, e := range p.Excluded {
		pv.Excluded = append(pv.Excluded, PreviewExcluded{Path: e.Path, Reason: e.Reason})
	}
	for _, f := range p.Findings {
		pv.Findings = append(pv.Findings, PreviewFinding{ID: f.ID, File: f.File, Line: f.Line, Rule: f.Rule,
			Severity: f.Severity, Detail: f.Detail, Action: f.Action})
	}
	for _, f := range skills.Blocking(p.Findings, nil) {
		if !slices.Contains(pv.MustAccept, f.ID) {
			pv.MustAccept = append(pv.MustAccept, f.ID)
		}
	}
	return pv
}

// Install imports path, plans it under opts and installs it, in one
// catalog transaction; a blocking conflict or a rejected package writes
// nothing (SPEC G3, G5). It enables and approves nothing (SPEC G4).
func Install(ctx context.Context, db Store, loader Loader, path string, opts InstallOptions) (store.SkillVersion, Plan, error) {
	p, err := read(ctx, loader, path)
	if err != nil {
		return store.SkillVersion{}, Plan{}, err
	}
	if opts.ExpectSHA256 != "" && p.SHA256 != opts.ExpectSHA256 {
		return store.SkillVersion{}, Plan{}, rejected("the package changed since its preview; preview it again before installing")
	}
	plan, err := PlanPackage(db, p, opts)
	if err != nil {
		return store.SkillVersion{}, Plan{}, err
	}
	if c, ok := plan.Preview.Blocked(); ok {
		return store.SkillVersion{}, plan, rejected("%s; %s", safetext.Line(c.What, 200), c.Resolution)
	}
	// High-severity findings install only when accepted by ID (SPEC G8);
	// the store checks again, whatever front end asks.
	if err := skills.CheckAccepted(p.Findings, opts.AcceptFindings); err != nil {
		var rej *skills.Rejection
		if errors.As(err, &rej) {
			return store.SkillVersion{}, plan, rejected("%s", safetext.Line(rej.Reason, 600))
		}
		return store.SkillVersion{}, plan, fmt.Errorf("check the accepted findings: %w", err)
	}
	v, err := db.InstallSkill(plan.version, plan.blobs, plan.defs)
	if errors.Is(err, store.ErrUnaccepted) {
		return store.SkillVersion{}, plan, rejected("%s", safetext.Line(err.Error(), 600))
	}
	if err != nil {
		return store.SkillVersion{}, plan, err
	}
	return v, plan, nil
}

// SummaryOf is the listing of one installed version.
func SummaryOf(v store.SkillVersion) Summary {
	return Summary{Name: v.Name, Version: v.Version, Origin: v.Origin, Installed: v.Installed, SHA256: v.SHA256,
		Description: v.Description, Files: len(v.Files), Findings: len(v.Findings)}
}

// Batch is what installing the plan writes, for a caller that installs it
// inside a larger transaction (applying a lockfile, SPEC N2).
func (p Plan) Batch() store.SkillInstall {
	return store.SkillInstall{Version: p.version, Blobs: p.blobs, Defs: p.defs}
}

// From is load reading a relative path against dir, its errors naming
// the path as it was given rather than the absolute one read: a command
// run through the session (whose own directory is another, SPEC K5) says
// the same sentence as in-process. dir "" reads paths as given.
func From(load Loader, dir string) Loader {
	return func(ctx context.Context, path string) (*skills.Package, error) {
		abs := path
		if dir != "" && path != "" && !filepath.IsAbs(path) {
			abs = filepath.Join(dir, path)
		}
		p, err := load(ctx, abs)
		if err != nil && abs != path {
			return nil, asGiven{err: err, abs: abs, path: path}
		}
		return p, err
	}
}

// asGiven is an error whose text names a path as given instead of the
// absolute path it was read at.
type asGiven struct {
	err       error
	abs, path string
}

func (a asGiven) Error() string { return strings.ReplaceAll(a.err.Error(), a.abs, a.path) }
func (a asGiven) Unwrap() error { return a.err }

// noPackage is a path that names nothing: one sentence that still is a
// not-exist error.
type noPackage struct{ path string }

// NoPackage is the error of a skill package path that names nothing: one
// sentence, not the chain of stat errors (issue 28 item 15), that still
// is a not-exist error.
func NoPackage(path string) error { return noPackage{path: safetext.Line(path, 200)} }

func (e noPackage) Error() string {
	return "there is no skill package at " + e.path + "; check the path"
}
func (e noPackage) Unwrap() error { return fs.ErrNotExist }
