package cliview

import (
	"fmt"
	"strings"
	"time"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/safetext"
)

// Doctor is `vouch doctor`: the model servers and their models, the
// keyring, the database, the MCP servers and the managed lock (SPEC M).
func Doctor(rep app.DoctorReport) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
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
	return clitext.Align(b.String())
}

// DatabaseCheck is `vouch doctor --check`: what was read and what is
// damaged (SPEC K1, K3).
func DatabaseCheck(rep app.CheckReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Database check\n  path\t%s\n  read\t%d buckets, %d keys, %d stored files re-hashed\n",
		safetext.Line(rep.Path, 0), rep.Buckets, rep.Keys, rep.Blobs)
	if rep.OK() {
		b.WriteString("  result\tsound: no damage found\n")
	} else {
		fmt.Fprintf(&b, "  result\t%s\n", clitext.Plural(len(rep.Problems), "problem"))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "  problem\t%s\n", safetext.Line(p, 300))
	}
	return clitext.Align(b.String())
}
