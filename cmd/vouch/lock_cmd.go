package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/safetext"
)

// runLock is `vouch lock export | check | apply | sign` (SPEC N1–N4);
// docs/FLEET.md is its reference.
func runLock(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch lock needs a subcommand: export, check, apply or sign")
	}
	sub := args[0]
	fs := subFlags("lock "+sub, g)
	asJSON := fs.Bool("json", false, "print JSON")
	out := fs.String("out", "", "write the lockfile here instead of standard output (export)")
	yes := fs.Bool("yes", false, "apply without asking (apply)")
	dir := fs.String("skills", "", "the folder of the pinned skill packages (apply)")
	key := fs.String("key", "", "the OpenSSH private key to sign with (sign)")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	if n, ok := map[string]int{"export": 0, "check": 1, "apply": 1, "sign": 1}[sub]; !ok || len(pos) > n || sub != "check" && len(pos) < n {
		return app.Errorf(app.Usage, "usage: vouch lock export [--out FILE] | check [FILE] [--json] | apply FILE [--yes] [--skills DIR] | sign FILE --key KEY")
	}
	switch sub {
	case "export":
		return withDB(g, e, func(s *app.State) error {
			data, err := s.Fleet().Export()
			if err == nil && *out != "" {
				return os.WriteFile(pathIn(e, *out), data, 0o644)
			}
			if err == nil {
				_, err = e.stdout.Write(data)
			}
			return err
		})
	case "check":
		return withDB(g, e, func(s *app.State) error { return lockCheck(s.Fleet(), append(pos, "")[0], *asJSON, e) })
	case "apply":
		return withState(ctx, g, e, func(s *state) error { return lockApply(ctx, s.Fleet(), pathIn(e, pos[0]), *dir, *yes, *asJSON, e) })
	}
	return signWith(e, pos[0], *key, "lock")
}

// pathIn resolves p against the command's working directory.
func pathIn(e env, p string) string {
	if p == "" || filepath.IsAbs(p) || e.cwd == "" {
		return p
	}
	return filepath.Join(e.cwd, p)
}

func lockCheck(f *app.Fleet, file string, asJSON bool, e env) error {
	rep, err := f.Check(pathIn(e, file), e.cwd)
	if err != nil {
		return err
	}
	if asJSON {
		err = clitext.WriteJSON(e.stdout, rep)
	} else {
		err = clitext.Write(e.stdout, "the check", cliview.LockCheck(rep))
	}
	if err == nil && len(rep.Drifts) > 0 {
		return app.Errorf(app.Failure, "this machine differs from %s in %d ways; 'vouch lock apply %s' previews making it agree", safetext.Line(rep.File, 200), len(rep.Drifts), app.ShellWord(rep.File))
	}
	return err
}

func lockApply(ctx context.Context, f *app.Fleet, file, dir string, yes, asJSON bool, e env) error {
	plan, err := f.PlanApply(ctx, file, pathIn(e, dir))
	if err != nil {
		return err
	}
	if !asJSON {
		if err := printLines(e, plan.Lines()); err != nil {
			return err
		}
	}
	if len(plan.Changes) > 0 && !yes {
		fmt.Fprintf(e.stdout, "apply these %d changes? [y/N] ", len(plan.Changes))
		line, _ := bufio.NewReader(e.stdin).ReadString('\n') // no answer is a no
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			return app.Errorf(app.Failure, "nothing was applied; answer y, or pass --yes")
		}
	}
	if plan, err = f.Apply(ctx, file, pathIn(e, dir), plan.Changes); err != nil {
		return err
	}
	if asJSON {
		err = clitext.WriteJSON(e.stdout, plan)
	} else if len(plan.Changes) > 0 {
		_, err = fmt.Fprintf(e.stdout, "applied %s in one transaction\n", clitext.Plural(len(plan.Changes), "change"))
	}
	if err == nil && len(plan.Cannot) > 0 {
		return app.Errorf(app.Failure, "%d items of the lockfile could not be applied; each line above says what to do", len(plan.Cannot))
	}
	return err
}

// runSkillSigning is `vouch skill manifest PKG` and `vouch skill sign PKG
// --key KEY` (SPEC N5).
func runSkillSigning(g *globals, sub string, args []string, e env) error {
	fs := subFlags("skill "+sub, g)
	key := fs.String("key", "", "the OpenSSH private key to sign with")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return app.Errorf(app.Usage, "vouch skill %s needs exactly one PKG: a .zip, .tar.gz or a folder", sub)
	}
	if sub == "sign" {
		return signWith(e, pos[0], *key, "skill")
	}
	m, err := app.SkillManifest(context.Background(), pathIn(e, pos[0]))
	if err == nil {
		_, err = e.stdout.Write(m)
	}
	return err
}

// signWith signs FILE (a lockfile, or a skill's manifest) with --key,
// writing FILE.sig (SPEC N4, N5).
func signWith(e env, file, key, what string) error {
	if key == "" {
		return app.Errorf(app.Usage, "vouch %s sign needs --key KEY, an OpenSSH private key", what)
	}
	sign := app.SignLockFile
	if what == "skill" {
		sign = app.SignSkill
	}
	out, err := sign(context.Background(), pathIn(e, file), pathIn(e, key))
	if err == nil {
		_, err = fmt.Fprintf(e.stdout, "wrote %s\n", safetext.Line(out, 0))
	}
	return err
}
