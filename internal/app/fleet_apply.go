package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"vouch/internal/app/localskills"
	"vouch/internal/lock"
	"vouch/mcpclient"
	"vouch/policy"
	"vouch/safetext"
	"vouch/skills"
	"vouch/store"
	"vouch/tool"
)

// LockPlan is what applying a lockfile would do (SPEC N2): the changes, in
// the skill install preview's style, and what it cannot apply with what to
// do about it. Applying never touches what the lockfile does not mention.
type LockPlan struct {
	File    string   `json:"file"`
	Signer  *Signer  `json:"signer,omitempty"`
	Changes []string `json:"changes"`
	Cannot  []string `json:"cannot_apply"`
	batch   store.LockBatch
	added   []mcpclient.ServerConfig
}

// Lines is the preview as a terminal shows it, every line neutralised:
// the signer, each change, each item that cannot be applied and why.
func (p LockPlan) Lines() []string {
	var out []string
	if p.Signer != nil {
		out = append(out, "signed by "+p.Signer.String())
	}
	for _, c := range p.Changes {
		out = append(out, "  + "+c)
	}
	for _, c := range p.Cannot {
		out = append(out, "  ! cannot apply: "+c)
	}
	if len(p.Changes) == 0 {
		out = append(out, "nothing to apply")
	}
	return out
}

// PlanApply previews applying the lockfile at path; skillsDir, when set,
// is the folder whose packages may install pinned skills, each verified
// against its pinned digest. It writes nothing.
func (f *Fleet) PlanApply(ctx context.Context, path, skillsDir string) (LockPlan, error) {
	l, signer, err := readLock(f.db, path, f.now())
	if err != nil {
		return LockPlan{}, err
	}
	m := loadManaged(f.db, f.now())
	if m.err != nil {
		return LockPlan{}, m.err
	}
	p := LockPlan{File: path, Signer: signer, Changes: []string{}, Cannot: []string{}}
	ids, err := p.planServers(f.db, l, m)
	if err != nil {
		return LockPlan{}, err
	}
	if err := p.planRules(f.db, l, ids, m); err != nil {
		return LockPlan{}, err
	}
	if err := p.planSkills(ctx, f.db, l, skillsDir, m, f.now()); err != nil {
		return LockPlan{}, err
	}
	have, _, err := machineLock(f.db)
	if err != nil {
		return LockPlan{}, err
	}
	for _, d := range lock.Diff(lock.Lock{ServerSkills: have.ServerSkills}, nil, lock.Lock{ServerSkills: l.ServerSkills}) {
		if !strings.Contains(d.Text, "the lock does not name it") {
			p.Cannot = append(p.Cannot, d.Text+"; review and approve it: 'vouch skill server preview SERVER URI', then 'vouch skill server approve SERVER URI'")
		}
	}
	for _, d := range lock.Diff(lock.Lock{Profiles: have.Profiles}, nil, lock.Lock{Profiles: l.Profiles}) {
		if !strings.Contains(d.Text, "the lock does not name it") {
			p.Cannot = append(p.Cannot, d.Text+"; a lockfile pins profiles by digest only: edit the profile ('vouch profile edit') to match the machine the lock came from")
		}
	}
	return p, nil
}

// Apply applies the lockfile at path in one transaction, as PlanApply
// previews it. preview, when given, is the Changes the person confirmed:
// when the machine or the file changed since, nothing is written and the
// error is Rejected.
func (f *Fleet) Apply(ctx context.Context, path, skillsDir string, preview []string) (LockPlan, error) {
	p, err := f.PlanApply(ctx, path, skillsDir)
	if err != nil {
		return p, err
	}
	if preview != nil && !slices.Equal(preview, p.Changes) {
		return p, Errorf(Rejected, "the lockfile or this machine changed since the preview, so nothing was applied; run 'vouch lock apply' again")
	}
	if len(p.Changes) == 0 {
		return p, nil
	}
	if _, err := f.db.ApplyLockBatch(p.batch); err != nil {
		return p, fmt.Errorf("nothing was applied: %w", err)
	}
	if f.mcp != nil {
		for _, cfg := range p.added {
			if err := f.mcp.mgr.Put(cfg); err != nil {
				return p, fmt.Errorf("applied, but the server %s is not loaded until vouch restarts: %w", safetext.Line(cfg.Name, 60), err)
			}
		}
		f.mcp.labels.drop()
	}
	return p, nil
}

// planServers adds the lock's servers that are missing and have no
// secret; it returns every server ID by lower-case name.
func (p *LockPlan) planServers(db *store.DB, l lock.Lock, m managed) (map[string]string, error) {
	existing, err := db.MCPServers()
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, s := range existing {
		ids[strings.ToLower(s.Name)] = s.ID
	}
	for _, w := range l.Servers {
		name := safetext.Line(w.Name, 60)
		i := slices.IndexFunc(existing, func(s store.MCPServer) bool { return strings.EqualFold(s.Name, w.Name) })
		if i >= 0 {
			if h := existing[i]; h.URL != w.URL || h.HeaderName != w.Header {
				delete(ids, strings.ToLower(w.Name)) // its rules are for the server the lock names, not this one
				p.Cannot = append(p.Cannot, fmt.Sprintf("server %s: configured here with %s, the lock says %s; remove it ('vouch server remove %s') and apply again",
					name, safetext.Line(h.URL, 100), safetext.Line(w.URL, 100), ShellWord(w.Name)))
			}
			continue
		}
		if w.Header != "" {
			p.Cannot = append(p.Cannot, fmt.Sprintf("server %s needs its secret, which a lockfile never holds: run 'printf %%s \"$SECRET\" | vouch server add %s --url %s --header %s --secret-stdin', then apply again",
				name, ShellWord(w.Name), ShellWord(w.URL), ShellWord(w.Header)))
			continue
		}
		if err := m.admitServer(w.Name, w.URL); err != nil {
			p.Cannot = append(p.Cannot, safetext.Line(err.Error(), 300))
			continue
		}
		cfg := mcpclient.NewServerConfig(w.Name, w.URL, "")
		if err := cfg.Validate(); err != nil {
			p.Cannot = append(p.Cannot, fmt.Sprintf("server %s: %s", name, safetext.Line(err.Error(), 200)))
			continue
		}
		ids[strings.ToLower(w.Name)] = cfg.ID
		p.added = append(p.added, cfg)
		p.batch.Servers = append(p.batch.Servers, store.MCPServer{ID: cfg.ID, Name: cfg.Name, URL: cfg.URL})
		p.Changes = append(p.Changes, fmt.Sprintf("add server %s at %s, inactive: then 'vouch server test %s' and 'vouch server activate %s'",
			name, safetext.Line(w.URL, 100), ShellWord(w.Name), ShellWord(w.Name)))
	}
	return ids, nil
}

// planRules sets every rule of the lock that differs here.
func (p *LockPlan) planRules(db *store.DB, l lock.Lock, ids map[string]string, m managed) error {
	stored, err := db.PolicyRules()
	if err != nil {
		return err
	}
	servers, err := db.MCPServers()
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, s := range servers {
		names[s.ID] = s.Name
	}
	current := map[string]lock.Rule{}
	for _, r := range stored {
		if lr, ok := lockRuleOf(r, names); ok {
			current[r.Identity] = lr
		}
	}
	for _, w := range l.Rules {
		subj := safetext.Line(w.Subject(), 100)
		identity := w.Tool
		if w.Server != "" {
			id, ok := ids[strings.ToLower(w.Server)]
			if !ok {
				p.Cannot = append(p.Cannot, fmt.Sprintf("tool %s: its server %s is not configured here as the lock names it; add the server, then apply again", subj, safetext.Line(w.Server, 60)))
				continue
			}
			identity = tool.MCPPrefix + id + ":" + w.Tool
		}
		if have, ok := current[identity]; ok && sameRule(have, w) {
			continue
		}
		if err := m.admitRule(w); err != nil {
			p.Cannot = append(p.Cannot, safetext.Line(err.Error(), 300))
			continue
		}
		r := store.PolicyRule{Identity: identity, Class: w.Class, Effect: w.Effect}
		for _, c := range w.Constraints {
			r.Constraints = append(r.Constraints, store.PolicyConstraint{Arg: c.Arg, Kind: c.Kind, Values: c.Values})
		}
		if w.Pin != "" {
			r.Pin = &store.PolicyPin{Digest: w.Pin}
			if cached, err := cachedPin(db, identity); err == nil && cached != nil && cached.Digest == w.Pin {
				r.Pin.Definition = []byte(cached.Definition)
			}
		}
		if err := policy.ValidateRule(RuleFromStore(r)); err != nil {
			p.Cannot = append(p.Cannot, fmt.Sprintf("tool %s: %s", subj, safetext.Line(err.Error(), 200)))
			continue
		}
		p.batch.Rules = append(p.batch.Rules, r)
		line := fmt.Sprintf("set tool %s: %s, effect %s", subj, safetext.Line(lock.RuleText(w), 200), w.Effect)
		if w.Pin != "" {
			line += ", pinned to " + shortDigest(w.Pin)
		}
		if have, ok := current[identity]; ok {
			line += fmt.Sprintf(" (was %s, effect %s)", safetext.Line(lock.RuleText(have), 200), have.Effect)
		}
		p.Changes = append(p.Changes, line)
	}
	return nil
}

func sameRule(a, b lock.Rule) bool {
	return lock.RuleText(a) == lock.RuleText(b) && a.Effect == b.Effect && a.Pin == b.Pin
}

// planSkills installs every pinned skill not installed here from the
// packages in dir whose digest is the pinned one.
func (p *LockPlan) planSkills(ctx context.Context, db *store.DB, l lock.Lock, dir string, m managed, now time.Time) error {
	installed, err := db.Skills()
	if err != nil {
		return err
	}
	var pkgs []*skills.Package // read once, only when a pin needs one
	for _, w := range l.Skills {
		name := safetext.Line(w.Name, 60)
		i := slices.IndexFunc(installed, func(v store.SkillVersion) bool { return v.Name == w.Name })
		if i >= 0 && installed[i].SHA256 == w.SHA256 {
			continue
		}
		if dir == "" {
			p.Cannot = append(p.Cannot, fmt.Sprintf("skill %s: the pinned package (version %d, sha256 %s) is not installed here; apply with --skills DIR, the folder where the packages are",
				name, w.Version, shortDigest(w.SHA256)))
			continue
		}
		if pkgs == nil {
			if pkgs, err = readPackages(ctx, dir); err != nil {
				return err
			}
		}
		k := slices.IndexFunc(pkgs, func(pk *skills.Package) bool { return pk.Name == w.Name && pk.SHA256 == w.SHA256 })
		if k < 0 {
			p.Cannot = append(p.Cannot, fmt.Sprintf("skill %s: no package in %s has the pinned sha256 %s; put the package there and apply again",
				name, safetext.Line(dir, 200), shortDigest(w.SHA256)))
			continue
		}
		if err := m.admitSkill(w.Name, w.SHA256); err != nil {
			p.Cannot = append(p.Cannot, safetext.Line(err.Error(), 300))
			continue
		}
		if err := judgeSignature(db, pkgs[k].Source, pkgs[k], now); err != nil { // SPEC N5: the signer, require-signed-skills
			p.Cannot = append(p.Cannot, fmt.Sprintf("skill %s: %s", name, safetext.Line(err.Error(), 300)))
			continue
		}
		plan, err := localskills.PlanPackage(db, pkgs[k], localskills.InstallOptions{NewRevision: i >= 0, AcceptFindings: w.Accepted})
		if err != nil {
			p.Cannot = append(p.Cannot, fmt.Sprintf("skill %s: %s", name, safetext.Line(err.Error(), 200)))
			continue
		}
		if c, blocked := plan.Preview.Blocked(); blocked {
			p.Cannot = append(p.Cannot, fmt.Sprintf("skill %s: %s; %s", name, safetext.Line(c.What, 200), safetext.Line(c.Resolution, 200)))
			continue
		}
		if err := skills.CheckAccepted(pkgs[k].Findings, w.Accepted); err != nil {
			p.Cannot = append(p.Cannot, fmt.Sprintf("skill %s: %s", name, safetext.Line(err.Error(), 300)))
			continue
		}
		p.batch.Skills = append(p.batch.Skills, plan.Batch())
		p.Changes = append(p.Changes, fmt.Sprintf("install skill %s from %s (sha256 %s) as version %d",
			name, safetext.Line(pkgs[k].Source, 200), shortDigest(w.SHA256), plan.Preview.InstallVersion))
	}
	return nil
}

// readPackages imports every package (archive or folder) directly in dir;
// one that does not import is skipped, as it cannot match a pin.
func readPackages(ctx context.Context, dir string) ([]*skills.Package, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, Wrap(Usage, fmt.Errorf("read the skills folder %s: %w", safetext.Line(dir, 200), err))
	}
	out := []*skills.Package{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sig") {
			continue
		}
		pk, err := localskills.Import(ctx, filepath.Join(dir, e.Name()))
		if err == nil {
			out = append(out, pk)
		}
	}
	return out, nil
}

// shortDigest cuts a digest to 12 hex digits for a preview line.
func shortDigest(d string) string {
	p, h, ok := strings.Cut(d, ":")
	if !ok {
		p, h = "", d
	} else {
		p += ":"
	}
	if len(h) > 12 {
		h = h[:12] + "…"
	}
	return p + h
}
