package tuiwire

import (
	"context"

	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/tui/settings/serverskills"
)

// The TUI's server skills (Settings › MCP Servers › skills; SPEC I1-I6):
// app.ServerSkills over the session's servers, its answers as the page's
// view types, every server-given string neutralised.

var _ serverskills.Backend = (*Servers)(nil)

func (t *Servers) serverSkills() (*app.ServerSkills, error) {
	return t.s.ServerSkills()
}

// ListServerSkills lists one server's skills with their states.
func (t *Servers) ListServerSkills(ctx context.Context, serverID string) (serverskills.Listing, error) {
	svc, err := t.serverSkills()
	if err != nil {
		return serverskills.Listing{}, err
	}
	list, listing, err := svc.List(ctx, serverID)
	out := serverskills.Listing{Summary: safetext.Line(listing.Summary(), 0)}
	for _, inv := range listing.Invalid {
		out.Invalid = append(out.Invalid, safetext.Line(inv.URI+": "+inv.Reason, 0))
	}
	for _, k := range list {
		out.Skills = append(out.Skills, serverSkillView(k.ServerSkill, k.Qualified))
	}
	return out, err
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
func (t *Servers) PreviewServerSkill(ctx context.Context, serverID, uri string) (serverskills.Preview, error) {
	svc, err := t.serverSkills()
	if err != nil {
		return serverskills.Preview{}, err
	}
	p, err := svc.Preview(ctx, serverID, uri)
	if err != nil {
		return serverskills.Preview{}, err
	}
	out := serverskills.Preview{Skill: serverSkillView(p.ServerSkill, p.Qualified), SetDigest: p.SetDigest}
	for _, id := range p.MustAccept {
		out.MustAccept = append(out.MustAccept, safetext.Line(id, 0))
	}
	out.Skill.Listed = true
	for _, l := range p.Lines() {
		out.Lines = append(out.Lines, safetext.Line(l, 0))
	}
	for _, a := range p.Approvals {
		out.Approvals = append(out.Approvals, a.N)
	}
	prec, err := svc.Precedence(p.Qualified)
	for _, l := range prec {
		out.Precedence = append(out.Precedence, safetext.Line(l, 0))
	}
	return out, err
}

// ApproveServerSkill approves exactly the set the preview showed, with the
// high-severity findings accept names accepted (SPEC G8, I5).
func (t *Servers) ApproveServerSkill(ctx context.Context, serverID, uri, setDigest string, accept []string) (serverskills.Skill, error) {
	return t.act(func(svc *app.ServerSkills) (mcpclient.ServerSkill, error) {
		return svc.Approve(ctx, serverID, uri, setDigest, accept...)
	})
}

// KeepServerSkill keeps the pinned version after a change.
func (t *Servers) KeepServerSkill(_ context.Context, serverID, uri string) (serverskills.Skill, error) {
	return t.act(func(svc *app.ServerSkills) (mcpclient.ServerSkill, error) { return svc.Keep(serverID, uri) })
}

// RollbackServerSkill goes back to approval n.
func (t *Servers) RollbackServerSkill(_ context.Context, serverID, uri string, n int) (serverskills.Skill, error) {
	return t.act(func(svc *app.ServerSkills) (mcpclient.ServerSkill, error) { return svc.Rollback(serverID, uri, n) })
}

func (t *Servers) act(fn func(*app.ServerSkills) (mcpclient.ServerSkill, error)) (serverskills.Skill, error) {
	svc, err := t.serverSkills()
	if err != nil {
		return serverskills.Skill{}, err
	}
	k, err := fn(svc)
	if err != nil {
		return serverskills.Skill{}, err
	}
	return serverSkillView(k, k.ServerLabel+"/"+k.Entry.Name), nil
}
