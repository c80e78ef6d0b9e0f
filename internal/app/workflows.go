package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"vouch/agent"
	"vouch/store"
	"vouch/workflow"
)

// Profiles is what `vouch profile`, `vouch definition` and the TUI's
// profile editor do with profiles and definitions: one place that checks a
// profile against the catalogs before it becomes a revision, so the two
// cannot disagree (SPEC H2).
type Profiles struct {
	db *store.DB
	// knownTools returns the identities a profile may select (built-in
	// tools and the cached catalogs); nil skips that check.
	knownTools func() []string
}

// newProfiles returns the profile service over db; knownTools returns the
// identities a profile may select (nil: any).
func newProfiles(db *store.DB, knownTools func() []string) *Profiles {
	return &Profiles{db: db, knownTools: knownTools}
}

// Profiles returns the profile service of the session: a profile may
// select the built-in tools and those of the cached catalogs.
func (a *App) Profiles() *Profiles { return newProfiles(a.db, knownTools(a.mcp)) }

// Profiles returns the profile service over this state, as App.Profiles.
// On a State of the database alone (WithDB) a profile may select any
// identity.
func (s *State) Profiles() *Profiles {
	if s.mcp == nil {
		return newProfiles(s.db, nil)
	}
	return newProfiles(s.db, knownTools(s.mcp))
}

// knownTools returns the identities of the built-in tools and of the
// cached catalogs of svc's servers.
func knownTools(svc *MCP) func() []string {
	return func() []string {
		ids := builtinIdentities()
		for _, t := range svc.mgr.Tools() {
			ids = append(ids, t.Identity)
		}
		return ids
	}
}

// reservedTools are vouch's own workflow tools: never selectable, they
// exist only inside a run that needs them (SPEC H5).
var reservedTools = []string{agent.SkillLoadIdentity, agent.SkillReadIdentity, agent.DelegateIdentity}

// builtinIdentities are the identities of vouch's workspace tools.
func builtinIdentities() []string {
	ws, err := agent.OpenWorkspace(os.TempDir())
	if err != nil {
		return nil
	}
	defer func() { _ = ws.Close() }()
	var out []string
	for _, t := range append(ws.Tools(), ws.WriteTools()...) {
		out = append(out, t.Def().Identity)
	}
	return out
}

// Profile returns the latest revision of name, or a usage error that says
// how to find the right name.
func (ps *Profiles) Profile(name string) (workflow.Profile, error) {
	p, err := ps.db.Profile(name, 0)
	if errors.Is(err, store.ErrNotFound) {
		return p, Errorf(Usage, "no profile is named %q; 'vouch profile list' shows them", name)
	}
	return p, err
}

// List returns the latest revision of every profile, by name.
func (ps *Profiles) List() ([]workflow.Profile, error) { return ps.db.Profiles() }

// Definitions returns the latest revision of every definition, by name.
func (ps *Profiles) Definitions() ([]workflow.Definition, error) { return ps.db.Definitions() }

// Definition returns the latest revision of the definition name.
func (ps *Profiles) Definition(name string) (workflow.Definition, error) {
	return ps.db.Definition(name, 0)
}

// Save checks p against the catalogs and stores it as its next revision.
// create says whether the profile must be new (or must exist).
func (ps *Profiles) Save(p workflow.Profile, create bool) (workflow.Profile, error) {
	_, err := ps.db.Profile(p.Name, 0)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return p, err
	case create && exists:
		return p, Errorf(Rejected, "a profile named %q already exists; change it with 'vouch profile edit %s'", p.Name, p.Name)
	case !create && !exists:
		return p, Errorf(Usage, "no profile is named %q; create it with 'vouch profile create %s --definition D'", p.Name, p.Name)
	}
	if err := ps.check(&p); err != nil {
		return p, err
	}
	saved, err := ps.db.PutProfile(p)
	if errors.Is(err, store.ErrInvalid) {
		return saved, Wrap(Usage, err)
	}
	return saved, err
}

// check validates p and what it names: the definition, the skills, the
// tools, the workspace folder and the schedule. It makes the workspace
// absolute.
func (ps *Profiles) check(p *workflow.Profile) error {
	if err := p.Validate(); err != nil {
		return Wrap(Usage, err)
	}
	if _, err := ps.db.Definition(p.Definition, p.DefinitionRevision); errors.Is(err, store.ErrNotFound) {
		return Errorf(Usage, "no definition is named %q; add one with 'vouch definition add FILE.json' ('vouch definition list' shows them)", p.Definition)
	} else if err != nil {
		return err
	}
	if err := checkProfileSkills(ps.db, *p); err != nil {
		return err
	}
	for _, id := range p.Tools {
		if slices.Contains(reservedTools, id) {
			return Errorf(Usage, "%s is vouch's own and cannot be selected; a run offers it when the profile enables skills", id)
		}
	}
	if ps.knownTools != nil {
		known := ps.knownTools()
		for _, id := range p.Tools {
			if !slices.Contains(known, id) {
				return Errorf(Usage, "no tool has the identity %q; 'vouch tools' lists them", id)
			}
		}
	}
	if p.Workspace != "" {
		abs, err := filepath.Abs(p.Workspace)
		if err != nil {
			return Errorf(Usage, "workspace %q cannot be made absolute (%v); pass a full path", p.Workspace, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return Errorf(Usage, "workspace %q is not a directory; pass an existing folder", p.Workspace)
		}
		p.Workspace = abs
	}
	if p.Schedule != nil {
		if _, err := workflow.ParseSchedule(*p.Schedule); err != nil {
			return Wrap(Usage, err)
		}
		if strings.TrimSpace(p.Schedule.Task) == "" {
			return Errorf(Usage, "a schedule needs --task TEXT: what the scheduled run should do")
		}
	}
	return nil
}

// Remove deletes a profile; its runs stay in history.
func (ps *Profiles) Remove(name string) error {
	err := ps.db.DeleteProfile(name)
	if errors.Is(err, store.ErrNotFound) {
		return Errorf(Usage, "no profile is named %q; 'vouch profile list' shows them", name)
	}
	return err
}

// AddDefinition validates a definition file's content and saves it as the
// person's: a new definition, or the next revision of one with that name,
// marked edited so that no package update replaces it (SPEC G5).
func (ps *Profiles) AddDefinition(data []byte) (workflow.Definition, error) {
	d, err := workflow.Parse(data)
	if err != nil {
		return d, Wrap(Rejected, fmt.Errorf("%w; fix the file and add it again", err))
	}
	if _, err := ps.db.Definition(d.Name, 0); err == nil {
		d.EditedByPerson = true
	} else if !errors.Is(err, store.ErrNotFound) {
		return d, err
	}
	d.Origin = "person"
	return ps.db.PutDefinition(d)
}

// RemoveDefinition deletes a definition no profile uses.
func (ps *Profiles) RemoveDefinition(name string) error {
	profiles, err := ps.db.Profiles()
	if err != nil {
		return err
	}
	var users []string
	for _, p := range profiles {
		if p.Definition == name {
			users = append(users, p.Name)
		}
	}
	if len(users) > 0 {
		return Errorf(Rejected, "definition %q is used by profile %s; change or remove those profiles first", name, strings.Join(users, ", "))
	}
	err = ps.db.DeleteDefinition(name)
	if errors.Is(err, store.ErrNotFound) {
		return Errorf(Usage, "no definition is named %q; 'vouch definition list' shows them", name)
	}
	return err
}
