package main

import (
	"context"
	"fmt"
	"strconv"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/skills"
)

// Skills served by MCP servers on the command line (SPEC I, M):
//
//	vouch skill server list SERVER [--json]       the live listing, each skill's state
//	vouch skill server preview SERVER URI [--json] the approval preview (reads no file)
//	vouch skill server approve SERVER URI --set DIGEST
//	vouch skill server pin SERVER URI              fetch, verify, scan and pin every file now
//	  (approve takes --accept-findings ID,... for high-severity findings, SPEC G8)
//	vouch skill server keep SERVER URI             keep the pinned version after a change
//	vouch skill server rollback SERVER URI N       go back to approval N (pinned files only)
//	vouch skill server dynamic SERVER on|off       allow "dynamic" skills (each load still asks)

// runServerSkill is `vouch skill server ...`.
func runServerSkill(ctx context.Context, g *globals, args []string, e env) error {
	const subs = "list, preview, approve, pin, keep, rollback or dynamic"
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch skill server needs a subcommand: %s", subs)
	}
	sub, rest := args[0], args[1:]
	want := map[string]int{"list": 1, "preview": 2, "approve": 2, "pin": 2, "keep": 2, "rollback": 3, "dynamic": 2}
	n, ok := want[sub]
	if !ok {
		return app.Errorf(app.Usage, "unknown subcommand 'vouch skill server %s'; use %s", sub, subs)
	}
	fs := subFlags("skill server "+sub, g)
	asJSON := fs.Bool("json", false, "print JSON")
	set := fs.String("set", "", "the resource set digest the preview showed")
	acceptList := fs.String("accept-findings", "", "approve despite these high-severity scanner findings: their IDs from the preview (SPEC G8)")
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return err
	}
	accept, err := skills.ParseFindingIDs(*acceptList)
	if err != nil {
		return app.Errorf(app.Usage, "%s", safetext.Line(err.Error(), 200))
	}
	if len(pos) != n {
		return app.Errorf(app.Usage, "vouch skill server %s takes %s", sub, map[string]string{
			"list": "SERVER", "preview": "SERVER URI", "approve": "SERVER URI --set DIGEST", "pin": "SERVER URI",
			"keep": "SERVER URI", "rollback": "SERVER URI N", "dynamic": "SERVER on|off"}[sub])
	}
	return withState(ctx, g, e, func(s *state) error {
		srv, err := s.MCP().ByName(pos[0])
		if err != nil {
			return err
		}
		svc, err := s.ServerSkills()
		if err != nil {
			return err
		}
		switch sub {
		case "list":
			return serverSkillList(ctx, svc, srv, *asJSON, e)
		case "preview":
			p, err := svc.Preview(ctx, srv.ID, pos[1])
			if err != nil {
				return err
			}
			if *asJSON {
				return clitext.WriteJSON(e.stdout, p.SkillPreview)
			}
			lines := p.Lines()
			if p.SetDigest != "" {
				lines = append(lines, fmt.Sprintf("approve exactly this with: vouch skill server approve %s %s --set %s",
					app.ShellWord(srv.Name), app.ShellWord(p.Entry.URI), p.SetDigest))
			}
			return printLines(e, lines)
		case "approve":
			if *set == "" {
				return app.Errorf(app.Usage, "vouch skill server approve needs --set DIGEST from 'vouch skill server preview'")
			}
			k, err := svc.Approve(ctx, srv.ID, pos[1], *set, accept...)
			return reportSkill(e, k, err, *asJSON)
		case "pin":
			rep, err := svc.Pin(ctx, srv.ID, pos[1])
			if err != nil {
				return err
			}
			if *asJSON {
				return clitext.WriteJSON(e.stdout, rep)
			}
			return clitext.Write(e.stdout, "the report", cliview.SkillPinned(rep))
		case "keep":
			k, err := svc.Keep(srv.ID, pos[1])
			return reportSkill(e, k, err, *asJSON)
		case "rollback":
			n, err := strconv.Atoi(pos[2])
			if err != nil || n <= 0 {
				return app.Errorf(app.Usage, "name the approval to roll back to by its number (1 is the first); 'vouch skill server preview' lists them")
			}
			k, err := svc.Rollback(srv.ID, pos[1], n)
			return reportSkill(e, k, err, *asJSON)
		default: // dynamic
			on := map[string]bool{"on": true, "off": false}
			v, ok := on[pos[1]]
			if !ok {
				return app.Errorf(app.Usage, "vouch skill server dynamic takes on or off")
			}
			if err := svc.SetDynamic(srv.ID, v); err != nil {
				return err
			}
			return printLines(e, []string{fmt.Sprintf("dynamic skills of %s: %s (each load still asks you)", safetext.Line(srv.Name, 64), pos[1])})
		}
	})
}

func reportSkill(e env, k mcpclient.ServerSkill, err error, asJSON bool) error {
	if err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, k)
	}
	return printLines(e, []string{safetext.Line(k.Sentence, 400)})
}

func serverSkillList(ctx context.Context, svc *app.ServerSkills, srv app.MCPServer, asJSON bool, e env) error {
	named, listing, lerr := svc.List(ctx, srv.ID)
	var list []mcpclient.ServerSkill // null in JSON when there is none, as before
	for _, k := range named {
		list = append(list, k.ServerSkill)
	}
	if asJSON {
		if err := clitext.WriteJSON(e.stdout, struct {
			Skills  []mcpclient.ServerSkill `json:"skills"`
			Listing mcpclient.SkillListing  `json:"listing"`
		}{list, listing}); err != nil {
			return err
		}
		return lerr
	}
	if err := clitext.Write(e.stdout, "the list", cliview.ServerSkillList(srv.Name, list, listing)); err != nil {
		return err
	}
	return lerr
}
