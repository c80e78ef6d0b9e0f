package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"vouch/internal/app"
	"vouch/safetext"
)

func runDoctor(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("doctor", g)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	rep := app.Doctor(ctx, g.modelURL, stateDir, e.getenv)
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	return printDoctor(e.stdout, rep)
}

func printDoctor(w io.Writer, rep app.DoctorReport) error {
	tw := newTable(w)
	p := tw.Printf
	p("Model servers\n")
	for _, s := range rep.ModelServers {
		if s.Error != "" {
			p("  %s\t%s\n", s.URL, safetext.Line(s.Error, 0))
			continue
		}
		p("  %s\t%s, %d model(s)\n", s.URL, s.Kind, len(s.Models))
		for _, m := range s.Models {
			window := "window unknown"
			if m.ContextWindow > 0 {
				window = fmt.Sprintf("%d tokens (%s)", m.ContextWindow, m.WindowSource)
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
		p("  %s\t%s, %d tool(s)\t%s\n", safetext.Line(m.Name, 40), m.Status, m.Tools, safetext.Line(m.URL, 60))
		if m.Error != "" {
			p("  \t%s\n", safetext.Line(m.Error, 100))
		}
	}
	return tw.Flush("report")
}
