package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/internal/clitext"
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
	if err := printDoctor(e.stdout, rep); err != nil {
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
		tw := clitext.NewTable(e.stdout)
		tw.Printf("Database check\n  path\t%s\n  read\t%d buckets, %d keys, %d stored files re-hashed\n",
			safetext.Line(rep.Path, 0), rep.Buckets, rep.Keys, rep.Blobs)
		if rep.OK() {
			tw.Printf("  result\tsound: no damage found\n")
		} else {
			tw.Printf("  result\t%s\n", clitext.Plural(len(rep.Problems), "problem"))
		}
		for _, p := range rep.Problems {
			tw.Printf("  problem\t%s\n", safetext.Line(p, 300))
		}
		err = tw.Flush("check")
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

func printDoctor(w io.Writer, rep app.DoctorReport) error {
	tw := clitext.NewTable(w)
	p := tw.Printf
	p("Model servers\n")
	// The usual ports nothing listens on take one line, not one each.
	unused, servers := rep.UnusedDefaults()
	if unused != "" {
		p("  %s\n", unused)
	}
	for _, s := range servers {
		if s.Error != "" {
			p("  %s\t%s\n", s.URL, safetext.Line(s.Error, 0))
			continue
		}
		p("  %s\t%s, %s\n", s.URL, s.Kind, clitext.Plural(len(s.Models), "model"))
		for _, m := range s.Models {
			window := "window unknown"
			if m.ContextWindow > 0 {
				window = fmt.Sprintf("%d tokens (%s)", m.ContextWindow, m.WindowSource)
				if m.WindowSource == agent.WindowFromOllamaShow {
					// Not loaded: Ollama may run it smaller (issue 24 item 3).
					window = fmt.Sprintf("%d tokens (%s; a guess until the model loads: Ollama may run it with a smaller window)", m.ContextWindow, m.WindowSource)
				}
			}
			p("    %s\t%s\n", safetext.Line(m.ID, 0), window)
		}
	}
	p("Keyring\n  backend\t%s\n  status\t%s\n", rep.Keyring.Backend, rep.Keyring.Status)
	if rep.Keyring.Error != "" {
		p("  error\t%s\n", rep.Keyring.Error)
	}
	db := rep.Database
	state := "not created yet"
	if db.Exists {
		state = "present"
	}
	p("Database\n  path\t%s\n  state\t%s (schema %d)\n", db.Path, state, db.SchemaVersion)
	if db.LockHolderPID != 0 {
		p("  in use by\tpid %d since %s\n", db.LockHolderPID, db.LockedSince.Format(time.RFC3339))
	} else {
		p("  in use by\tnobody\n")
	}
	p("MCP servers\n")
	switch {
	case rep.MCPNote != "":
		p("  %s\n", rep.MCPNote)
	case len(rep.MCPServers) == 0:
		p("  none configured\n")
	}
	for _, m := range rep.MCPServers {
		p("  %s\t%s, %s\t%s\n", safetext.Line(m.Name, 40), m.Status, clitext.Plural(m.Tools, "tool"), safetext.Line(m.URL, 60))
		if m.Error != "" {
			p("  \t%s\n", safetext.Line(m.Error, 100))
		}
	}
	if l := rep.Lock; l != nil { // SPEC N2, N3 (docs/FLEET.md)
		p("Lock\n  managed lock\t%s\n  status\t%s\n", safetext.Line(l.File, 80), safetext.Line(l.Summary, 200))
	}
	return tw.Flush("report")
}
