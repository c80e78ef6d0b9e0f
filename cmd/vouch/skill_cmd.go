package main

import (
	"context"
	"errors"
	"fmt"

	"vouch/internal/app"
	"vouch/internal/app/localskills"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/internal/tuiwire"
	"vouch/safetext"
	"vouch/skills"
)

// previewInstructionLines folds the instructions in `vouch skill preview`;
// --json carries all of them.
const previewInstructionLines = 40

// previewWidth is the width of the text preview.
const previewWidth = 100

// runSkill is `vouch skill preview | install | list | remove` (SPEC G, M).
func runSkill(ctx context.Context, g *globals, args []string, e env) error {
	return skillCommand(ctx, g, args, e, localskills.Import)
}

// skillCommand is runSkill with the importer passed in.
func skillCommand(ctx context.Context, g *globals, args []string, e env, load localskills.Loader) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch skill needs a subcommand: preview, install, list, remove, server, manifest or sign")
	}
	sub, rest := args[0], args[1:]
	if sub == "server" { // skills served by MCP servers (server_skills.go)
		return runServerSkill(ctx, g, rest, e)
	}
	if sub == "manifest" || sub == "sign" { // SPEC N5 (lock_cmd.go)
		return runSkillSigning(g, sub, rest, e)
	}
	switch sub {
	case "preview", "install", "list", "remove":
	default:
		return unknownSub("skill", sub, "preview", "install", "list", "remove", "server", "manifest", "sign")
	}
	fs := subFlags("skill "+sub, g)
	asJSON := fs.Bool("json", false, "print JSON")
	var opts localskills.InstallOptions
	var accept string
	if sub == "install" {
		fs.StringVar(&accept, "accept-findings", "", "install despite these high-severity scanner findings: their IDs from the preview, comma-separated (SPEC G8)")
		fs.StringVar(&opts.Rename, "rename", "", "install under another skill name")
		fs.BoolVar(&opts.NewRevision, "new-revision", false, "add a new version of an installed skill of the same name")
	}
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return err
	}
	if opts.AcceptFindings, err = skills.ParseFindingIDs(accept); err != nil {
		return app.Errorf(app.Usage, "%s", safetext.Line(err.Error(), 200))
	}
	want := 1
	if sub == "list" {
		want = 0
	}
	if len(pos) != want {
		switch {
		case sub == "list":
			return app.Errorf(app.Usage, "vouch skill list takes no argument")
		case sub == "remove":
			return app.Errorf(app.Usage, "vouch skill remove needs exactly one skill name")
		default:
			return app.Errorf(app.Usage, "vouch skill %s needs exactly one FILE: a .zip, .tar.gz, a folder or a SKILL.md", sub)
		}
	}
	var err2 error
	switch sub {
	case "preview":
		err2 = withDB(g, e, func(s *app.State) error { return skillPreview(ctx, s, e.loader(load), pos[0], *asJSON, e) })
	case "install":
		err2 = withDB(g, e, func(s *app.State) error { return skillInstall(ctx, s, e.loader(load), pos[0], opts, *asJSON, e) })
	case "list":
		err2 = withDB(g, e, func(s *app.State) error { return skillList(s, *asJSON, e) })
	case "remove":
		err2 = withDB(g, e, func(s *app.State) error { return skillRemove(s, pos[0], *asJSON, e) })
	}
	if errors.Is(err2, localskills.ErrRejected) || errors.Is(err2, app.ErrUnaccepted) {
		return app.Wrap(app.Rejected, err2)
	}
	return err2
}

func skillPreview(ctx context.Context, s *app.State, load localskills.Loader, path string, asJSON bool, e env) error {
	preview, err := s.PreviewSkill(ctx, load, path)
	if err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, preview)
	}
	return printLines(e, tuiwire.SkillPreviewLines(preview, previewWidth, previewInstructionLines))
}

func printLines(e env, lines []string) error {
	return clitext.Write(e.stdout, "the text", cliview.Lines(lines...))
}

func skillInstall(ctx context.Context, s *app.State, load localskills.Loader, path string, opts localskills.InstallOptions, asJSON bool, e env) error {
	v, preview, err := s.InstallSkill(ctx, load, path, opts)
	if err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, struct {
			Skill   localskills.Summary `json:"skill"`
			Preview localskills.Preview `json:"preview"`
		}{v, preview})
	}
	return clitext.Write(e.stdout, "the skill", cliview.SkillInstalled(v, preview))
}

func skillList(s *app.State, asJSON bool, e env) error {
	out, err := s.SkillSummaries() // installed, then approved server skills, origin "server:<label>"
	if err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, out)
	}
	return clitext.Write(e.stdout, "the list", cliview.SkillList(out))
}

func skillRemove(s *app.State, name string, asJSON bool, e env) error {
	if err := s.RemoveSkill(name); err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, map[string]string{"removed": name})
	}
	_, err := fmt.Fprintf(e.stdout, "removed %s and every version of it; definitions it imported stay\n", safetext.Line(name, 80))
	return err
}
