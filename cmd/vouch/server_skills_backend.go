package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/tui/settings/serverskills"
)

// The TUI's server skills (Settings › MCP Servers › skills; SPEC I1-I6):
// the same trust layer as `vouch skill server`, over the session's
// servers. Listing happens only when the person opens a server's skills.

var _ serverskills.Backend = (*tuiServers)(nil)

func (t *tuiServers) skillService() (*mcpclient.SkillService, error) {
	return app.NewSkillService(t.s.DB(), t.s.MCP().Manager())
}

// ListServerSkills lists one server's skills with their states.
func (t *tuiServers) ListServerSkills(ctx context.Context, serverID string) (serverskills.Listing, error) {
	svc, err := t.skillService()
	if err != nil {
		return serverskills.Listing{}, err
	}
	list, listing, lerr := svc.List(ctx, serverID)
	out := serverskills.Listing{Summary: safetext.Line(listing.Summary(), 0)}
	for _, inv := range listing.Invalid {
		out.Invalid = append(out.Invalid, safetext.Line(inv.URI+": "+inv.Reason, 0))
	}
	refs := make([]mcpclient.SkillRef, len(list))
	for i, k := range list {
		refs[i] = mcpclient.SkillRef{Name: k.Entry.Name, ServerID: k.ServerID, ServerLabel: k.ServerLabel, URI: k.Entry.URI}
	}
	// An approved skill carries the name profiles use (the catalog's); the
	// rest are named among this listing.
	named := mcpclient.NameSkills(refs)
	c, err := app.LoadSkillCatalog(t.s.DB())
	if err != nil {
		return out, err
	}
	named = append(named, c.Named()...)
	for _, k := range list {
		q := k.ServerLabel + "/" + k.Entry.Name
		for _, n := range named {
			if n.ServerID == k.ServerID && n.URI == k.Entry.URI {
				q = n.Qualified
			}
		}
		out.Skills = append(out.Skills, serverSkillView(k, q))
	}
	return out, lerr
}

// serverSkillView is k as the TUI shows it, named q.
func serverSkillView(k mcpclient.ServerSkill, q string) serverskills.Skill {
	v := serverskills.Skill{URI: safetext.Line(k.Entry.URI, 0), Name: safetext.Line(q, 0), Description: safetext.Neutralize(k.Entry.Description),
		State: serverskills.State(k.State), Sentence: safetext.Line(k.Sentence, 0), Files: len(k.Entry.Files), Listed: k.Listed}
	if k.Approval != nil {
		v.Approval = k.Approval.N
	}
	return v
}

// PreviewServerSkill prepares the approval preview: vouch's lines, the
// approvals on record and where the skill stands in the profiles that
// enable it.
func (t *tuiServers) PreviewServerSkill(ctx context.Context, serverID, uri string) (serverskills.Preview, error) {
	svc, err := t.skillService()
	if err != nil {
		return serverskills.Preview{}, err
	}
	p, err := svc.Preview(ctx, serverID, uri)
	if err != nil {
		return serverskills.Preview{}, err
	}
	q := p.ServerLabel + "/" + p.Entry.Name
	if c, err := app.LoadSkillCatalog(t.s.DB()); err == nil {
		for _, n := range c.Named() {
			if n.ServerID == serverID && n.URI == uri {
				q = n.Qualified
			}
		}
	}
	out := serverskills.Preview{Skill: serverSkillView(p.ServerSkill, q), SetDigest: p.SetDigest}
	out.Skill.Listed = true
	for _, l := range p.Lines() {
		out.Lines = append(out.Lines, safetext.Line(l, 0))
	}
	for _, a := range p.Approvals {
		out.Approvals = append(out.Approvals, a.N)
	}
	out.Precedence, err = t.precedenceOf(q)
	return out, err
}

// precedenceOf says where the skill named q stands in every profile that
// enables it (SPEC I6).
func (t *tuiServers) precedenceOf(q string) ([]string, error) {
	profiles, err := t.s.DB().Profiles()
	if err != nil {
		return nil, fmt.Errorf("read the profiles: %w", err)
	}
	var out []string
	for _, p := range profiles {
		if slices.Contains(p.Skills, q) {
			out = append(out, safetext.Line(fmt.Sprintf("profile %s: %s", p.Name, strings.Join(app.PrecedenceOrder(p), ", ")), 0))
		}
	}
	if len(out) == 0 {
		out = append(out, safetext.Line(fmt.Sprintf("No profile enables %s yet. On a profile it is documentation: the profile's local policy skills outrank it, and it grants nothing.", q), 0))
	}
	return out, nil
}

// ApproveServerSkill approves exactly the set the preview showed.
func (t *tuiServers) ApproveServerSkill(ctx context.Context, serverID, uri, setDigest string) (serverskills.Skill, error) {
	return t.act(func(svc *mcpclient.SkillService) (mcpclient.ServerSkill, error) {
		return svc.Approve(ctx, serverID, uri, setDigest)
	})
}

// KeepServerSkill keeps the pinned version after a change.
func (t *tuiServers) KeepServerSkill(_ context.Context, serverID, uri string) (serverskills.Skill, error) {
	return t.act(func(svc *mcpclient.SkillService) (mcpclient.ServerSkill, error) { return svc.Keep(serverID, uri) })
}

// RollbackServerSkill goes back to approval n.
func (t *tuiServers) RollbackServerSkill(_ context.Context, serverID, uri string, n int) (serverskills.Skill, error) {
	return t.act(func(svc *mcpclient.SkillService) (mcpclient.ServerSkill, error) {
		return svc.Rollback(serverID, uri, n)
	})
}

func (t *tuiServers) act(fn func(*mcpclient.SkillService) (mcpclient.ServerSkill, error)) (serverskills.Skill, error) {
	svc, err := t.skillService()
	if err != nil {
		return serverskills.Skill{}, err
	}
	k, err := fn(svc)
	if err != nil {
		return serverskills.Skill{}, err
	}
	return serverSkillView(k, k.ServerLabel+"/"+k.Entry.Name), nil
}
