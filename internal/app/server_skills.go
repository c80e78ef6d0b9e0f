package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"vouch/internal/app/localskills"
	"vouch/mcpclient"
	"vouch/store"
)

// ServerSkills is the trust layer over the skills MCP servers serve (SPEC
// I1-I6), as 'vouch skill server' and Settings › MCP Servers › skills use
// it: each skill named as a profile names it, the approval preview with
// where the skill stands in the profiles that enable it, and the approve,
// pin, keep and rollback steps. Listing contacts a server; nothing else
// here lists on its own. A refusal of the trust layer is Rejected, a
// server that does not answer Unavailable.
type ServerSkills struct {
	db  *store.DB
	svc *mcpclient.SkillService
}

// newServerSkills returns the server skills over db and the servers of m.
func newServerSkills(db *store.DB, m *mcpclient.Manager) (*ServerSkills, error) {
	svc, err := newSkillService(db, m)
	if err != nil {
		return nil, err
	}
	return &ServerSkills{db: db, svc: svc}, nil
}

// NamedServerSkill is a server skill with the name a profile uses for it
// ("<server>/<name>", with the path prefix when one server has two).
type NamedServerSkill struct {
	mcpclient.ServerSkill
	Qualified string
}

// ServerSkillPreview is the approval preview of one server skill, with
// the name a profile uses for it.
type ServerSkillPreview struct {
	mcpclient.SkillPreview
	Qualified string
}

// List lists one server's skills with their states. An approved skill
// carries the name profiles use (the catalog's); the rest are named among
// this listing. The listing's own error comes back with what was listed.
func (s *ServerSkills) List(ctx context.Context, serverID string) ([]NamedServerSkill, mcpclient.SkillListing, error) {
	list, listing, lerr := s.svc.List(ctx, serverID)
	refs := make([]mcpclient.SkillRef, len(list))
	for i, k := range list {
		refs[i] = mcpclient.SkillRef{Name: k.Entry.Name, ServerID: k.ServerID, ServerLabel: k.ServerLabel, URI: k.Entry.URI}
	}
	named := mcpclient.NameSkills(refs)
	c, err := loadSkillCatalog(s.db)
	if err != nil {
		return nil, listing, err
	}
	named = append(named, c.Named()...)
	var out []NamedServerSkill // nil when the server lists none, as the trust layer's
	for _, k := range list {
		q := k.ServerLabel + "/" + k.Entry.Name
		for _, n := range named {
			if n.ServerID == k.ServerID && n.URI == k.Entry.URI {
				q = n.Qualified
			}
		}
		out = append(out, NamedServerSkill{ServerSkill: k, Qualified: q})
	}
	return out, listing, ServerSkillError(lerr)
}

// Preview prepares the approval preview: vouch's lines, the approvals on
// record, and the name profiles use for the skill; Precedence says where
// it stands in them.
func (s *ServerSkills) Preview(ctx context.Context, serverID, uri string) (ServerSkillPreview, error) {
	p, err := s.svc.Preview(ctx, serverID, uri)
	if err != nil {
		return ServerSkillPreview{}, ServerSkillError(err)
	}
	q := p.ServerLabel + "/" + p.Entry.Name
	if c, err := loadSkillCatalog(s.db); err == nil {
		for _, n := range c.Named() {
			if n.ServerID == serverID && n.URI == uri {
				q = n.Qualified
			}
		}
	}
	if err := s.judgeSignature(ctx, serverID, &p); err != nil {
		return ServerSkillPreview{}, err
	}
	return ServerSkillPreview{SkillPreview: p, Qualified: q}, nil
}

// Precedence says where the skill named q stands in every profile that
// enables it (SPEC I6).
func (s *ServerSkills) Precedence(q string) ([]string, error) {
	profiles, err := s.db.Profiles()
	if err != nil {
		return nil, fmt.Errorf("read the profiles: %w", err)
	}
	var out []string
	for _, p := range profiles {
		if slices.Contains(p.Skills, q) {
			out = append(out, fmt.Sprintf("profile %s: %s", p.Name, strings.Join(PrecedenceOrder(p), ", ")))
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("No profile enables %s yet. On a profile it is documentation: the profile's local policy skills outrank it, and it grants nothing.", q))
	}
	return out, nil
}

// Approve approves exactly the set the preview showed; high-severity
// findings need their IDs in accept (SPEC G8, I5).
func (s *ServerSkills) Approve(ctx context.Context, serverID, uri, setDigest string, accept ...string) (mcpclient.ServerSkill, error) {
	accept, signer, err := s.admitSignature(ctx, serverID, uri, accept)
	if err != nil {
		return mcpclient.ServerSkill{}, err
	}
	k, err := s.svc.Approve(ctx, serverID, uri, setDigest, accept...)
	if err == nil && signer != "" && k.Approval != nil { // SPEC N5: kept with the approval
		err = s.svc.SetApprovalSigner(serverID, uri, setDigest, signer)
		k.Approval.Signer = signer
	}
	return k, ServerSkillError(err)
}

// Pin fetches, verifies, scans and pins every file now.
func (s *ServerSkills) Pin(ctx context.Context, serverID, uri string) (mcpclient.PinReport, error) {
	rep, err := s.svc.Pin(ctx, serverID, uri)
	return rep, ServerSkillError(err)
}

// Keep keeps the pinned version after a change.
func (s *ServerSkills) Keep(serverID, uri string) (mcpclient.ServerSkill, error) {
	k, err := s.svc.Keep(serverID, uri)
	return k, ServerSkillError(err)
}

// Rollback goes back to approval n (pinned files only).
func (s *ServerSkills) Rollback(serverID, uri string, n int) (mcpclient.ServerSkill, error) {
	k, err := s.svc.Rollback(serverID, uri, n)
	return k, ServerSkillError(err)
}

// SetDynamic allows or refuses the server's "dynamic" skills; each load
// still asks the person.
func (s *ServerSkills) SetDynamic(serverID string, on bool) error {
	return s.db.PutServerSkillSettings(serverID, store.ServerSkillSettings{AllowDynamic: on})
}

// ServerSkillError gives a refusal of the trust layer the kind Rejected
// and any other of its errors Unavailable, its sentence unchanged; other
// errors pass through.
func ServerSkillError(err error) error {
	var me *mcpclient.Error
	if !errors.As(err, &me) {
		return err
	}
	switch me.Kind {
	case mcpclient.ErrSkillNotApproved, mcpclient.ErrSkillVerification, mcpclient.ErrSkillDynamic,
		mcpclient.ErrSkillFindings, mcpclient.ErrSkillInvalid, mcpclient.ErrCrossOrigin, mcpclient.ErrSkillsUnsupported:
		return Errorf(Rejected, "%s", me.Error()) // lower case, after "vouch: " (issue 28 item 15)
	}
	return Errorf(Unavailable, "%s", me.Error())
}

// serverSkillSummaries lists the server skills with a stored approval as
// rows of 'vouch skill list': named per origin as a profile names them,
// origin "server:<server>" and their state. It reads the database only,
// never a server.
func serverSkillSummaries(db *store.DB) ([]localskills.Summary, error) {
	servers, err := db.MCPServers()
	if err != nil {
		return nil, err
	}
	c, err := loadSkillCatalog(db)
	if err != nil {
		return nil, err
	}
	qualified := map[[2]string]string{}
	for _, n := range c.Named() {
		qualified[[2]string{n.ServerID, n.URI}] = n.Qualified
	}
	var out []localskills.Summary
	for _, srv := range servers {
		ks, err := mcpclient.StoredServerSkills(db, srv.ID, srv.Name)
		if err != nil {
			return nil, err
		}
		for _, k := range ks {
			name := qualified[[2]string{srv.ID, k.Entry.URI}]
			if name == "" {
				name = srv.Name + "/" + k.Entry.Name
			}
			row := localskills.Summary{Name: name, Origin: k.Origin() + " (" + string(k.State) + ")",
				Description: k.Entry.Description, Files: len(k.Entry.Files), Findings: len(k.Findings)}
			if a := k.Approval; a != nil {
				row.Version, row.Installed, row.SHA256 = a.N, a.At, a.SetDigest
			}
			out = append(out, row)
		}
	}
	return out, nil
}
