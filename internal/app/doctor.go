package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"vouch/agent"
	"vouch/mcpclient"
	"vouch/store"
)

// DoctorReport is what `vouch doctor` finds (SPEC M): the model servers
// that answer, the keyring, the database and the health of every MCP
// server.
type DoctorReport struct {
	ModelServers []DoctorServer `json:"model_servers"`
	Keyring      DoctorKeyring  `json:"keyring"`
	Database     DoctorDatabase `json:"database"`
	MCPServers   []ServerRow    `json:"mcp_servers"`
	// MCPNote says why MCP health could not be checked, if so.
	MCPNote string `json:"mcp_note,omitempty"`
	// Lock is the managed lock's check, when one is configured (SPEC N2).
	Lock *DoctorLock `json:"lock,omitempty"`
	// Ready is true when a model server answered with a model; Summary is
	// the verdict in one sentence, with what to do when not ready
	// (doctor_summary.go).
	Ready   bool   `json:"ready"`
	Summary string `json:"summary"`
}

// DoctorServer is one model server candidate and the models it lists.
type DoctorServer struct {
	URL    string        `json:"url"`
	Kind   string        `json:"kind,omitempty"`
	Models []DoctorModel `json:"models,omitempty"`
	Error  string        `json:"error,omitempty"`
	// Refused is true when nothing listens there (connection refused).
	Refused bool `json:"refused,omitempty"`
}

// DoctorModel is one model a server lists, with its context window.
type DoctorModel struct {
	ID            string `json:"id"`
	ContextWindow int    `json:"context_window,omitempty"`
	WindowSource  string `json:"window_source,omitempty"`
}

// DoctorKeyring is the keyring backend and whether it answers.
type DoctorKeyring struct {
	Backend string `json:"backend"`
	Status  string `json:"status"`
	Error   string `json:"error,omitempty"`
}

// DoctorDatabase is the database file and who holds its lock.
type DoctorDatabase struct {
	Path          string    `json:"path"`
	Exists        bool      `json:"exists"`
	SchemaVersion int       `json:"schema_version"`
	LockHolderPID int       `json:"lock_holder_pid,omitempty"`
	LockedSince   time.Time `json:"locked_since,omitzero"`
}

// Doctor checks the model servers (modelURL, or the default endpoints when
// ""), the keyring, the database of stateDir and, when the database exists
// and nobody holds it, every active MCP server. It never creates a
// database and reports every failure in the report.
func Doctor(ctx context.Context, modelURL, stateDir string, getenv func(string) string) DoctorReport {
	return doctor(ctx, modelURL, stateDir, getenv, nil)
}

// Doctor is Doctor run in the session that holds the database (SPEC K5):
// its MCP servers are checked through the session's own connections.
func (a *App) Doctor(ctx context.Context, modelURL, stateDir string, getenv func(string) string) DoctorReport {
	return doctor(ctx, modelURL, stateDir, getenv, StateOf(a))
}

func doctor(ctx context.Context, modelURL, stateDir string, getenv func(string) string, held *State) DoctorReport {
	var rep DoctorReport
	eps := agent.Probe(ctx, &http.Client{}, agent.DefaultEndpoints())
	if modelURL != "" {
		eps = agent.ProbeGiven(ctx, &http.Client{}, []string{modelURL})
	}
	for _, ep := range eps {
		s := DoctorServer{URL: ep.BaseURL, Kind: ep.Kind}
		if ep.Err != nil {
			s.Error, s.Refused = ep.Err.Error(), refused(ep.Err)
		}
		for _, m := range ep.Models {
			s.Models = append(s.Models, DoctorModel{ID: m.ID, ContextWindow: m.ContextWindow, WindowSource: m.WindowSource})
		}
		rep.ModelServers = append(rep.ModelServers, s)
	}

	rep.Keyring = doctorKeyring(ctx, stateDir, getenv)

	path := filepath.Join(stateDir, store.FileName)
	rep.Database = DoctorDatabase{Path: path, SchemaVersion: store.SchemaVersion()}
	if _, err := os.Stat(path); err == nil {
		rep.Database.Exists = true
	}
	if pid, since, ok := store.LockHolder(path); ok {
		rep.Database.LockHolderPID = pid
		rep.Database.LockedSince = since
	}
	rep.MCPServers, rep.MCPNote = doctorMCP(ctx, stateDir, getenv, rep.Database, held)
	rep.Lock = doctorLock(stateDir, rep.Database, held)
	rep.summarize()
	return rep
}

// doctorMCP refreshes every active MCP server, within one bound for them
// all (mcpclient.WarmBound; issue 24 item 2), and reports each one's
// health: a server that did not answer in time says so. In the session
// (held), its own servers, kept warm. It never creates a database.
func doctorMCP(ctx context.Context, stateDir string, getenv func(string) string, db DoctorDatabase, held *State) ([]ServerRow, string) {
	switch {
	case !db.Exists:
		return []ServerRow{}, ""
	case held != nil:
		if rows := held.MCP().ServerRows(nil); rows != nil {
			return rows, "" // the session's own, kept warm
		}
		return []ServerRow{}, ""
	case db.LockHolderPID != 0:
		return []ServerRow{}, fmt.Sprintf("not checked: the database is in use by pid %d; quit that vouch to check MCP servers", db.LockHolderPID)
	}
	st, err := OpenState(ctx, stateDir, getenv)
	if err != nil {
		return []ServerRow{}, "not checked: " + err.Error()
	}
	absent := st.MCP().Manager().WarmFor(ctx, mcpclient.WarmBound)
	rows := st.MCP().ServerRows(nil)
	for i := range rows {
		for _, a := range absent {
			if rows[i].ID == a.ID && rows[i].Error == "" {
				rows[i].Error = a.Why
			}
		}
	}
	if err := st.Close(); err != nil {
		return []ServerRow{}, "not checked: " + err.Error()
	}
	if rows == nil {
		rows = []ServerRow{}
	}
	return rows, ""
}

// doctorKeyring names the keyring backend and checks that it answers, by
// looking up a key that does not exist.
func doctorKeyring(ctx context.Context, stateDir string, getenv func(string) string) DoctorKeyring {
	sec, err := store.NewSecrets(store.SecretsOptions{StateDir: stateDir, Getenv: getenv})
	if err != nil {
		return DoctorKeyring{Status: "unavailable", Error: err.Error()}
	}
	k := DoctorKeyring{Backend: sec.Backend()}
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
