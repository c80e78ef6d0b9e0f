package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"vouch/agent"
	"vouch/safetext"
	"vouch/store"
)

// doctorReport is what `vouch doctor` finds (SPEC M).
type doctorReport struct {
	ModelServers []doctorServer `json:"model_servers"`
	Keyring      doctorKeyring  `json:"keyring"`
	Database     doctorDatabase `json:"database"`
	MCPServers   []serverJSON   `json:"mcp_servers"`
	// MCPNote says why MCP health could not be checked, if so.
	MCPNote string `json:"mcp_note,omitempty"`
}

type doctorServer struct {
	URL    string        `json:"url"`
	Kind   string        `json:"kind,omitempty"`
	Models []doctorModel `json:"models,omitempty"`
	Error  string        `json:"error,omitempty"`
}

type doctorModel struct {
	ID            string `json:"id"`
	ContextWindow int    `json:"context_window,omitempty"`
	WindowSource  string `json:"window_source,omitempty"`
}

type doctorKeyring struct {
	Backend string `json:"backend"`
	Status  string `json:"status"`
	Error   string `json:"error,omitempty"`
}

type doctorDatabase struct {
	Path          string    `json:"path"`
	Exists        bool      `json:"exists"`
	SchemaVersion int       `json:"schema_version"`
	LockHolderPID int       `json:"lock_holder_pid,omitempty"`
	LockedSince   time.Time `json:"locked_since,omitzero"`
}

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
	rep := doctor(ctx, g, stateDir, e)
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	return printDoctor(e.stdout, rep)
}

func doctor(ctx context.Context, g *globals, stateDir string, e env) doctorReport {
	var rep doctorReport
	candidates := agent.DefaultEndpoints()
	if g.modelURL != "" {
		candidates = []string{g.modelURL}
	}
	for _, ep := range agent.Probe(ctx, &http.Client{}, candidates) {
		s := doctorServer{URL: ep.BaseURL, Kind: ep.Kind}
		if ep.Err != nil {
			s.Error = ep.Err.Error()
		}
		for _, m := range ep.Models {
			s.Models = append(s.Models, doctorModel{ID: m.ID, ContextWindow: m.ContextWindow, WindowSource: m.WindowSource})
		}
		rep.ModelServers = append(rep.ModelServers, s)
	}

	rep.Keyring = doctorKeyringCheck(ctx, stateDir, e)

	path := filepath.Join(stateDir, store.FileName)
	rep.Database = doctorDatabase{Path: path, SchemaVersion: store.SchemaVersion()}
	if _, err := os.Stat(path); err == nil {
		rep.Database.Exists = true
	}
	if pid, since, ok := store.LockHolder(path); ok {
		rep.Database.LockHolderPID = pid
		rep.Database.LockedSince = since
	}
	rep.MCPServers, rep.MCPNote = doctorMCP(ctx, g, e, rep.Database)
	return rep
}

// doctorMCP refreshes every active MCP server, bounded by the per-server
// timeout, and reports each one's health. It never creates a database.
func doctorMCP(ctx context.Context, g *globals, e env, db doctorDatabase) ([]serverJSON, string) {
	switch {
	case !db.Exists:
		return []serverJSON{}, ""
	case db.LockHolderPID != 0:
		return []serverJSON{}, fmt.Sprintf("not checked: the database is in use by pid %d; quit that vouch to check MCP servers", db.LockHolderPID)
	}
	var rows []serverJSON
	err := withState(ctx, g, e, func(s *state) error {
		s.MCP().Manager().WarmAll(ctx)
		for _, st := range s.MCP().Manager().Servers() {
			rows = append(rows, serverRow(st))
		}
		return nil
	})
	if err != nil {
		return []serverJSON{}, "not checked: " + err.Error()
	}
	if rows == nil {
		rows = []serverJSON{}
	}
	return rows, ""
}

// doctorKeyringCheck names the keyring backend and checks that it answers,
// by looking up a key that does not exist.
func doctorKeyringCheck(ctx context.Context, stateDir string, e env) doctorKeyring {
	sec, err := store.NewSecrets(store.SecretsOptions{StateDir: stateDir, Getenv: e.getenv})
	if err != nil {
		return doctorKeyring{Status: "unavailable", Error: err.Error()}
	}
	k := doctorKeyring{Backend: sec.Backend()}
	_, err = sec.Get(ctx, "vouch-doctor-probe")
	switch {
	case err == nil, errors.Is(err, store.ErrSecretNotFound):
		k.Status = "ok"
	default:
		k.Status = "error"
		k.Error = err.Error()
	}
	return k
}

func printDoctor(w io.Writer, rep doctorReport) error {
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
