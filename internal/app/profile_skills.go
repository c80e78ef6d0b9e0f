package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"vouch/internal/view"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/skills"
	"vouch/store"
	"vouch/tool"
	"vouch/workflow"
)

// Server skills on profiles (SPEC H4, I1-I6). A profile enables a skill by
// its per-origin name (mcpclient.NameSkills): a local skill by its own
// name, a skill served by an MCP server as "<server label>/<name>". The
// names a profile may use come from the database alone — installed local
// skills and server skills with a stored approval — so neither checking a
// profile nor showing the skill picker ever asks a server (I1). At run
// start every enabled server skill is frozen through a SkillRun, which
// fetches its current entry: a skill that is not approved for its current
// set, changed since approval, held for findings, or "dynamic" refuses the
// run in one sentence saying what to do.

// newSkillService is the trust layer over m's servers with db as store.
func newSkillService(db *store.DB, m *mcpclient.Manager) (*mcpclient.SkillService, error) {
	return mcpclient.NewSkillService(m, mcpclient.SkillServiceOptions{
		Store: db,
		Scan:  skills.Scan,
		AllowDynamic: func(id string) (bool, error) {
			set, err := db.ServerSkillSettings(id)
			return set.AllowDynamic, err
		},
	})
}

// SkillCatalog is every skill a profile may enable, named per origin.
type SkillCatalog struct {
	named []mcpclient.NamedSkill
	// local are the installed local skills by name.
	local map[string]store.SkillVersion
	// server are the server skills with a stored approval, by qualified
	// name.
	server map[string]mcpclient.ServerSkill
}

// loadSkillCatalog reads the local catalog and the stored server skill
// records; it asks no server.
func loadSkillCatalog(db *store.DB) (SkillCatalog, error) {
	c := SkillCatalog{local: map[string]store.SkillVersion{}, server: map[string]mcpclient.ServerSkill{}}
	installed, err := db.Skills()
	if err != nil {
		return c, fmt.Errorf("read the skill catalog: %w", err)
	}
	var refs []mcpclient.SkillRef
	for _, v := range installed {
		c.local[v.Name] = v
		refs = append(refs, mcpclient.SkillRef{Name: v.Name})
	}
	servers, err := db.MCPServers()
	if err != nil {
		return c, fmt.Errorf("read the MCP servers: %w", err)
	}
	byKey := map[[2]string]mcpclient.ServerSkill{}
	for _, srv := range servers {
		ks, err := mcpclient.StoredServerSkills(db, srv.ID, srv.Name)
		if err != nil {
			return c, fmt.Errorf("read the skills of server %s: %w", safetext.Line(srv.Name, 64), err)
		}
		for _, k := range ks {
			refs = append(refs, mcpclient.SkillRef{Name: k.Entry.Name, ServerID: srv.ID, ServerLabel: srv.Name, URI: k.Entry.URI})
			byKey[[2]string{srv.ID, k.Entry.URI}] = k
		}
	}
	c.named = mcpclient.NameSkills(refs)
	for _, n := range c.named {
		if !n.Local() {
			c.server[n.Qualified] = byKey[[2]string{n.ServerID, n.URI}]
		}
	}
	return c, nil
}

// Named is every skill of the catalog, named per origin.
func (c SkillCatalog) Named() []mcpclient.NamedSkill { return c.named }

// lookup finds the skill a profile names: its qualified name exactly.
func (c SkillCatalog) lookup(name string) (mcpclient.NamedSkill, bool) {
	for _, n := range c.named {
		if n.Qualified == name {
			return n, true
		}
	}
	return mcpclient.NamedSkill{}, false
}

// checkProfileSkills checks that every skill p enables is an installed
// local skill or a server skill vouch has an approval record of, named as
// `vouch skill list` names it.
func checkProfileSkills(db *store.DB, p workflow.Profile) error {
	if !slices.ContainsFunc(p.Skills, isServerSkillName) {
		for _, s := range p.Skills {
			if _, err := db.Skill(s, 0); errors.Is(err, store.ErrNotFound) {
				return Errorf(Usage, "no skill named %q is installed; 'vouch skill list' shows the installed ones", s)
			} else if err != nil {
				return err
			}
		}
		return nil
	}
	c, err := loadSkillCatalog(db)
	if err != nil {
		return err
	}
	for _, s := range p.Skills {
		if _, ok := c.lookup(s); ok {
			continue
		}
		if isServerSkillName(s) {
			label, _, _ := strings.Cut(s, "/")
			return Errorf(Usage, "no approved server skill is named %q; list the skills of %s with 'vouch skill server list %s', then preview and approve one ('vouch skill list' shows the names to use)",
				s, ShellWord(label), ShellWord(label))
		}
		return Errorf(Usage, "no skill named %q is installed; 'vouch skill list' shows the installed ones", s)
	}
	return nil
}

// isServerSkillName reports a per-origin server skill name: local skill
// names never contain a slash.
func isServerSkillName(name string) bool { return strings.Contains(name, "/") }

// frozenSkills is what a run froze of its profile's skills.
type frozenSkills struct {
	// run are the skills the run lists, in precedence order.
	run []tool.FrozenSkill
	// recs is their record in the frozen spec, in the same order.
	recs []FrozenSkill
	// blobs reads their files.
	blobs tool.SkillBlobs
	// precedence is the prompt's precedence sentence ("" without server
	// skills).
	precedence string
}

// freezeProfileSkills freezes the skills p enables (SPEC H4): local ones
// from the catalog, server ones through a SkillRun that fetches, verifies
// and pins them, then orders them — local policy skills first (SPEC I6).
// ctx bounds every server read the run makes for its skills.
func (pr *ProfileRunner) freezeProfileSkills(ctx context.Context, p workflow.Profile) (frozenSkills, error) {
	local := newPinnedBlobs() // local skill files, read now (workflow_blobs.go)
	out := frozenSkills{blobs: local}
	if !slices.ContainsFunc(p.Skills, isServerSkillName) {
		run, recs, err := freezeSkills(pr.db, p.Skills, local)
		if err != nil {
			return out, err
		}
		out.run, out.recs = run, recs
		return orderFrozen(out, p, nil), nil
	}
	c, err := loadSkillCatalog(pr.db)
	if err != nil {
		return out, err
	}
	var sr *mcpclient.SkillRun
	named := make([]mcpclient.NamedSkill, 0, len(p.Skills))
	for _, name := range p.Skills {
		n, ok := c.lookup(name)
		if !ok && !isServerSkillName(name) {
			return out, fmt.Errorf("%w: %q", errSkillMissing, name)
		}
		if !ok {
			label, _, _ := strings.Cut(name, "/")
			return out, Errorf(Rejected, "profile %q enables the server skill %q, which vouch has no approval of; list the skills of %s with 'vouch skill server list %s', preview and approve it, or remove it from the profile",
				p.Name, name, ShellWord(label), ShellWord(label))
		}
		named = append(named, n)
		if n.Local() {
			run, recs, err := freezeSkills(pr.db, []string{name}, local)
			if err != nil {
				return out, err
			}
			out.run, out.recs = append(out.run, run...), append(out.recs, recs...)
			continue
		}
		if pr.serverSkills == nil {
			return out, Errorf(Unavailable, "profile %q enables the server skill %q, but this run has no MCP servers to load it from", p.Name, name)
		}
		if sr == nil {
			sr = pr.serverSkills.NewRun(ctx)
			sr.Local = local
			out.blobs = sr
		}
		fs, err := sr.Freeze(n.ServerID, n.URI, mcpclient.FreezeOptions{Name: n.Qualified})
		if err != nil {
			return out, serverSkillRefusal(p.Name, n, err)
		}
		rec := FrozenSkill{Name: fs.Name, SHA256: fs.SHA256, Origin: fs.Origin, Instructions: fs.Instructions, Resources: fs.Resources,
			ServerID: n.ServerID, URI: n.URI}
		if a := c.server[n.Qualified].Approval; a != nil {
			rec.Version = a.N
		}
		out.run, out.recs = append(out.run, fs), append(out.recs, rec)
	}
	return orderFrozen(out, p, named), nil
}

// orderFrozen puts f's skills in precedence order (mcpclient.OrderSkills)
// and sets the precedence sentence. named holds the per-origin names in
// the profile's order; nil means every skill is local.
func orderFrozen(f frozenSkills, p workflow.Profile, named []mcpclient.NamedSkill) frozenSkills {
	if named == nil {
		for _, name := range p.Skills {
			named = append(named, mcpclient.NamedSkill{SkillRef: mcpclient.SkillRef{Name: name}, Qualified: name})
		}
	}
	for i := range named {
		named[i].Policy = named[i].Local() && slices.Contains(p.PolicySkills, named[i].Qualified)
	}
	ordered := mcpclient.OrderSkills(named)
	out := frozenSkills{blobs: f.blobs, precedence: mcpclient.PrecedenceSentence(ordered)}
	for _, n := range ordered {
		i := slices.IndexFunc(f.run, func(s tool.FrozenSkill) bool { return s.Name == n.Qualified })
		if i < 0 {
			continue
		}
		rec := f.recs[i]
		rec.Policy = n.Policy
		out.run, out.recs = append(out.run, f.run[i]), append(out.recs, rec)
	}
	return out
}

// serverSkillRefusal turns a failed freeze of a server skill into one
// sentence naming the skill and what to do; a refusal of the trust layer
// exits 3, an unreachable server 5.
func serverSkillRefusal(profile string, n mcpclient.NamedSkill, err error) error {
	var me *mcpclient.Error
	if !errors.As(err, &me) {
		return fmt.Errorf("load the server skill %s of profile %s: %w", n.Qualified, profile, err)
	}
	why := strings.TrimSuffix(me.Error(), ".") // joined after ": ", in lower case
	preview := fmt.Sprintf("'vouch skill server preview %s %s'", ShellWord(n.ServerLabel), ShellWord(n.URI))
	switch me.Kind {
	case mcpclient.ErrSkillNotApproved, mcpclient.ErrSkillVerification, mcpclient.ErrSkillFindings, mcpclient.ErrSkillInvalid:
		return Errorf(Rejected, "profile %q cannot run because of its server skill %s: %s; review it with %s and approve it with 'vouch skill server approve %s %s --set DIGEST' (or keep or roll back a pinned version)",
			profile, n.Qualified, why, preview, ShellWord(n.ServerLabel), ShellWord(n.URI))
	case mcpclient.ErrSkillDynamic:
		return Errorf(Rejected, "profile %q cannot run because of its server skill %s: %s; a profile run has no one to confirm each load, so remove it from the profile",
			profile, n.Qualified, why)
	case mcpclient.ErrSkillsUnsupported, mcpclient.ErrCrossOrigin:
		return Errorf(Rejected, "profile %q cannot run because of its server skill %s: %s", profile, n.Qualified, why)
	}
	return Errorf(Unavailable, "profile %q cannot load its server skill %s: %s; check the server with 'vouch server test %s'",
		profile, n.Qualified, why, ShellWord(n.ServerLabel))
}

// PrecedenceOrder is the order p's skills take in a run's listing (SPEC
// I6), each with its origin and role: local policy skills first, then the
// rest in the profile's order; a server skill is documentation. It reads
// nothing: the names say the origin.
func PrecedenceOrder(p workflow.Profile) []string {
	var named []mcpclient.NamedSkill
	for _, name := range p.Skills {
		n := mcpclient.NamedSkill{SkillRef: mcpclient.SkillRef{Name: name}, Qualified: name}
		if label, rest, ok := strings.Cut(name, "/"); ok {
			n.Name, n.ServerID, n.ServerLabel = rest, label, label
		}
		n.Policy = n.Local() && slices.Contains(p.PolicySkills, name)
		named = append(named, n)
	}
	var out []string
	for i, n := range mcpclient.OrderSkills(named) {
		role := "local"
		switch {
		case n.Policy:
			role = "local policy"
		case !n.Local():
			role = n.Origin() + ", documentation"
		}
		out = append(out, fmt.Sprintf("%d. %s (%s)", i+1, n.Qualified, role))
	}
	return out
}

// ServerSkills are the server skills over the session's database and MCP
// servers (SPEC G).
func (a *App) ServerSkills() (*ServerSkills, error) { return newServerSkills(a.db, a.mcp.mgr) }

// serverSkillService is the trust layer over the session's servers, or nil
// when it cannot be built (profile runs then refuse server skills).
func (a *App) serverSkillService() *mcpclient.SkillService {
	svc, err := newSkillService(a.db, a.mcp.mgr)
	if err != nil {
		return nil
	}
	return svc
}

// KeepEnabled is policy without the names enabled does not hold: a skill
// taken off a profile stops being its policy skill.
func KeepEnabled(policy, enabled []string) []string {
	return slices.DeleteFunc(slices.Clone(policy), func(n string) bool { return !slices.Contains(enabled, n) })
}

// SkillChoice is view.SkillChoice (internal/view), shared with the interface.
type SkillChoice = view.SkillChoice

// skillChoices lists every skill a profile may enable for the
// picker: the enabled ones in the profile's order, then the rest by name,
// server skills marked "from <server label>" with their state. It reads
// the database only.
func skillChoices(db *store.DB, enabled []string) ([]SkillChoice, error) {
	c, err := loadSkillCatalog(db)
	if err != nil {
		return nil, err
	}
	choice := func(n mcpclient.NamedSkill, on bool) SkillChoice {
		if n.Local() {
			v := c.local[n.Qualified]
			return SkillChoice{Name: safetext.Line(v.Name, 0), Version: strconv.Itoa(v.Version), Description: safetext.Line(v.Description, 0), Enabled: on}
		}
		k := c.server[n.Qualified]
		out := SkillChoice{Name: safetext.Line(n.Qualified, 0), Description: safetext.Line(k.Entry.Description, 0), Enabled: on,
			Origin: "from " + safetext.Line(n.ServerLabel, 64)}
		if k.Approval != nil {
			out.Version = "approval " + strconv.Itoa(k.Approval.N)
		}
		if k.State != mcpclient.SkillApproved {
			out.Origin += " (" + string(k.State) + ")"
		}
		return out
	}
	var out []SkillChoice
	for _, name := range enabled {
		if n, ok := c.lookup(name); ok {
			out = append(out, choice(n, true))
		}
	}
	for _, n := range c.named {
		if !slices.Contains(enabled, n.Qualified) {
			out = append(out, choice(n, false))
		}
	}
	return out, nil
}

// ShellWord quotes s for a command line a sentence suggests, when it needs
// quoting.
func ShellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"'$`\\;&|<>()*?[]#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
