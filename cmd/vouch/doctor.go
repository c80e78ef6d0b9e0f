package main

import (
	"context"
	"fmt"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/internal/host"
	"vouch/safetext"
)

func runDoctor(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("doctor", g)
	asJSON := fs.Bool("json", false, "print JSON")
	check := fs.Bool("check", false, "read the whole database: bbolt's page check and every stored file re-hashed (SPEC K1, K3)")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	if *check {
		return doctorCheck(stateDir, *asJSON, e)
	}
	var rep app.DoctorReport
	if e.host != nil { // in the session: through its connections (SPEC K5)
		rep = e.host.Doctor(ctx, g.modelURL, stateDir, e.getenv)
	} else {
		rep = app.Doctor(ctx, g.modelURL, stateDir, e.getenv)
	}
	sess := host.Client{StateDir: stateDir}.Status() // SPEC K4
	if *asJSON {
		if err := clitext.WriteJSON(e.stdout, doctorJSON{DoctorReport: rep, Session: sess}); err != nil {
			return err
		}
		return doctorVerdict(rep)
	}
	if err := clitext.Write(e.stdout, "report", cliview.Doctor(rep)); err != nil {
		return err
	}
	if err := printDoctorSession(e.stdout, sess); err != nil {
		return err
	}
	if rep.Ready {
		if _, err := fmt.Fprintln(e.stdout, safetext.Line(rep.Summary, 0)); err != nil {
			return fmt.Errorf("write the report: %w", err)
		}
	}
	return doctorVerdict(rep)
}

// doctorVerdict is doctor's exit (issue 18 item 19): 0 when ready, else 1
// with the summary — what is missing and what to do — on stderr.
func doctorVerdict(rep app.DoctorReport) error {
	if rep.Ready {
		return nil
	}
	return app.Errorf(app.Failure, "%s", rep.Summary)
}

// doctorCheck is `vouch doctor --check`: the report, then exit 1 when the
// file is damaged (SPEC K1, K3, M).
func doctorCheck(stateDir string, asJSON bool, e env) error {
	check := func() (app.CheckReport, error) { return app.CheckDatabase(stateDir) }
	if e.host != nil { // in the session: its open database (SPEC K5)
		check = e.host.CheckDatabase
	}
	rep, err := check()
	if err != nil {
		return err
	}
	if asJSON {
		err = clitext.WriteJSON(e.stdout, rep)
	} else {
		err = clitext.Write(e.stdout, "check", cliview.DatabaseCheck(rep))
	}
	if err != nil {
		return err
	}
	if !rep.OK() {
		return app.Errorf(app.Failure, "the database %s is damaged (%s above); restore a copy of it, or move it aside (do not delete it) and start vouch again to create a fresh one",
			safetext.Line(rep.Path, 0), clitext.Plural(len(rep.Problems), "problem"))
	}
	return nil
}
