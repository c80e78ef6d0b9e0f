package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/store"
	"vouch/tool"
)

// catalogStore keeps the MCP tool catalogs in the database (SPEC B5).
type catalogStore struct{ db *store.DB }

var _ mcpclient.CatalogStore = catalogStore{}

// newCatalogStore returns the catalog cache kept in db.
func newCatalogStore(db *store.DB) mcpclient.CatalogStore { return catalogStore{db: db} }

func (c catalogStore) LoadCatalog(_ context.Context, serverID string) (mcpclient.Catalog, bool, error) {
	data, ok, err := c.db.Catalog(serverID)
	if err != nil || !ok {
		return mcpclient.Catalog{}, false, err
	}
	var cat mcpclient.Catalog
	if err := json.Unmarshal(data, &cat); err != nil {
		// An unreadable cache is no cache: the next refresh replaces it.
		return mcpclient.Catalog{}, false, nil
	}
	return cat, true, nil
}

func (c catalogStore) SaveCatalog(_ context.Context, cat mcpclient.Catalog) error {
	data, err := json.Marshal(cat)
	if err != nil {
		return fmt.Errorf("encode the tool catalog: %w", err)
	}
	return c.db.PutCatalog(cat.ServerID, data)
}

func (c catalogStore) DeleteCatalog(_ context.Context, serverID string) error {
	return c.db.DeleteCatalog(serverID)
}

// SecretKey is the keyring key of an MCP server's secret header value: the
// server's stable identity, never its name (SPEC B1).
func SecretKey(serverID string) string { return "mcp:" + serverID }

// keyringSecrets supplies secret header values from the OS keyring. Work the
// person did not start (warming) never raises a keyring prompt (SPEC B6).
type keyringSecrets struct{ s *store.Secrets }

var _ mcpclient.SecretSource = keyringSecrets{}

func (k keyringSecrets) Secret(ctx context.Context, serverID string, mode mcpclient.SecretMode) (string, error) {
	var v string
	var err error
	if mode == mcpclient.NonInteractive {
		v, err = k.s.GetNoPrompt(ctx, SecretKey(serverID))
	} else {
		v, err = k.s.Get(ctx, SecretKey(serverID))
	}
	switch {
	case err == nil:
		return v, nil
	case errors.Is(err, store.ErrKeyringLocked), errors.Is(err, store.ErrSecretNotFound), errors.Is(err, store.ErrKeyringTimeout):
		return "", fmt.Errorf("%w: %w", mcpclient.ErrSecretLocked, err)
	default:
		return "", err
	}
}

// WarmBriefly refreshes every active server within mcpclient.WarmBound
// and returns the servers whose tools are not offered, and why: one bound
// for the whole warm-up, which a live server answers well within and no
// number of dead ones can stretch, for the commands that have nobody to
// wait for warming in the background (`vouch tools`, `tools plan`, `run`,
// `server list`; issue 16 item 10, issue 24 item 2; SPEC B5). What a
// server could not confirm comes from its cached catalog: offered when the
// server is merely slow, marked stale (not offered) when it failed.
func (svc *MCP) WarmBriefly(ctx context.Context) []mcpclient.Absent {
	return svc.mgr.WarmFor(ctx, mcpclient.WarmBound)
}

// MCP is what both the command line and the TUI do with MCP servers:
// configuration in the database, secrets in the keyring, connections and
// catalogs in the manager. One place, so the two cannot disagree.
type MCP struct {
	db      *store.DB
	secrets *store.Secrets
	mgr     *mcpclient.Manager
	// labels are the tool labels of the configured servers, dropped on
	// every change of a server's name or endpoint (tool_labels.go).
	labels labelCache
}

// newMCP builds the manager over the database and keyring and loads
// every configured server. It starts no connection.
func newMCP(ctx context.Context, db *store.DB, secrets *store.Secrets) (*MCP, error) {
	opts := mcpclient.Options{Store: catalogStore{db: db}, ClientVersion: Version}
	if secrets != nil {
		opts.Secrets = keyringSecrets{s: secrets}
	}
	svc := &MCP{db: db, secrets: secrets, mgr: mcpclient.NewManager(opts)}
	servers, err := db.MCPServers()
	if err != nil {
		return nil, err
	}
	for _, s := range servers {
		if err := svc.mgr.Put(toConfig(s)); err != nil {
			return nil, fmt.Errorf("load MCP server %q: %w", s.Name, err)
		}
	}
	if err := svc.mgr.Load(ctx); err != nil {
		return nil, fmt.Errorf("load the cached tool catalogs: %w", err)
	}
	return svc, nil
}

func toConfig(s store.MCPServer) mcpclient.ServerConfig {
	return mcpclient.ServerConfig{ID: s.ID, Name: s.Name, URL: s.URL, HeaderName: s.HeaderName, Active: s.Active,
		CallTimeout: time.Duration(s.CallTimeoutMS) * time.Millisecond}
}

func (svc *MCP) Close() error { return svc.mgr.Close() }

// ByName finds a configured server by name.
func (svc *MCP) ByName(name string) (store.MCPServer, error) {
	s, err := svc.db.MCPServerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return s, Errorf(Usage, "no MCP server is named %q; 'vouch server list' shows them", name)
	}
	return s, err
}

// Save adds (id empty) or edits a server. A non-nil secret replaces the
// stored one ("" removes it). Saving never activates anything (SPEC B2).
// It is all or nothing (issue 18 item 19): when the keyring refuses the
// secret, or the manager the configuration, the stored server is taken
// back — a new one removed, an edited one restored — so a retry starts
// from where the person was.
func (svc *MCP) Save(ctx context.Context, id, name, rawURL, header string, secret *string) (store.MCPServer, error) {
	name = strings.TrimSpace(name)
	cfg := mcpclient.NewServerConfig(name, rawURL, strings.TrimSpace(header))
	var rec, old store.MCPServer
	if id != "" {
		var err error
		if old, err = svc.serverByID(id); err != nil {
			return rec, err
		}
		cfg.ID, cfg.Active, rec.Created = old.ID, old.Active, old.Created
		cfg.CallTimeout = time.Duration(old.CallTimeoutMS) * time.Millisecond
	}
	if err := cfg.Validate(); err != nil {
		return rec, Wrap(Rejected, err)
	}
	if err := loadManaged(svc.db, time.Now()).admitServer(cfg.Name, cfg.URL); err != nil { // SPEC N3
		return rec, err
	}
	if secret != nil && *secret != "" && cfg.HeaderName == "" {
		return rec, Errorf(Usage, "a secret needs a header to travel in; pass --header (for example Authorization)")
	}
	rec = store.MCPServer{ID: cfg.ID, Name: cfg.Name, URL: cfg.URL, HeaderName: cfg.HeaderName, Active: cfg.Active, Created: rec.Created,
		CallTimeoutMS: cfg.CallTimeout.Milliseconds()}
	if err := svc.db.PutMCPServer(rec); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return rec, Errorf(Rejected, "an MCP server named %q already exists; choose another name", name)
		}
		return rec, err
	}
	// undo takes the stored server back after a later step failed.
	undo := func(cause error) error {
		var err error
		if id == "" {
			err = svc.db.DeleteMCPServer(rec.ID)
		} else {
			err = svc.db.PutMCPServer(old)
		}
		if err != nil {
			return errors.Join(cause, fmt.Errorf("and taking the server back failed too (%w); remove it with 'vouch server remove %s'", err, ShellWord(name)))
		}
		return cause
	}
	if secret != nil {
		if err := svc.setSecret(ctx, cfg.ID, *secret); err != nil {
			what := "added"
			if id != "" {
				what = "changed"
			}
			return store.MCPServer{}, undo(Wrap(Unavailable, fmt.Errorf("the server was not %s, because its secret could not be stored: %w", what, err)))
		}
	}
	if err := svc.mgr.Put(cfg); err != nil {
		if secret != nil && id == "" {
			err = errors.Join(err, svc.secrets.Delete(ctx, SecretKey(cfg.ID)))
		}
		return store.MCPServer{}, undo(err)
	}
	svc.labels.drop()
	return rec, nil
}

func (svc *MCP) setSecret(ctx context.Context, id, secret string) error {
	if svc.secrets == nil {
		return errors.New("no keyring could be opened for it; 'vouch doctor' says why — unlock the desktop keyring, or set VOUCH_KEYRING_BACKEND (with VOUCH_KEYRING_PASSPHRASE for the file keyring)")
	}
	if secret == "" {
		return svc.secrets.Delete(ctx, SecretKey(id))
	}
	return svc.secrets.Set(ctx, SecretKey(id), secret)
}

func (svc *MCP) serverByID(id string) (store.MCPServer, error) {
	all, err := svc.db.MCPServers()
	if err != nil {
		return store.MCPServer{}, err
	}
	for _, s := range all {
		if s.ID == id {
			return s, nil
		}
	}
	return store.MCPServer{}, fmt.Errorf("MCP server %s: %w", id, store.ErrNotFound)
}

// Test connects to a saved server and reports what it offers, registering
// nothing (SPEC B2). The secret is read from the keyring, asking if needed.
func (svc *MCP) Test(ctx context.Context, id string) (mcpclient.TestReport, error) {
	rec, err := svc.serverByID(id)
	if err != nil {
		return mcpclient.TestReport{}, err
	}
	secret := ""
	if rec.HeaderName != "" && svc.secrets != nil {
		secret, err = svc.secrets.Get(ctx, SecretKey(id))
		if err != nil && !errors.Is(err, store.ErrSecretNotFound) {
			return mcpclient.TestReport{}, fmt.Errorf("read the server's secret: %w", err)
		}
	}
	rep, err := svc.mgr.Test(ctx, toConfig(rec), secret)
	if err != nil {
		return rep, Wrap(Unavailable, err)
	}
	return rep, nil
}

// SetActive activates (refreshing the catalog now, with the person present)
// or deactivates a server, and persists the choice.
func (svc *MCP) SetActive(ctx context.Context, id string, active bool) error {
	rec, err := svc.serverByID(id)
	if err != nil {
		return err
	}
	if active {
		if err := loadManaged(svc.db, time.Now()).admitServer(rec.Name, rec.URL); err != nil { // SPEC N3
			return err
		}
	}
	cfg, err := svc.mgr.SetActive(id, active)
	if err != nil {
		return err
	}
	if active {
		// A failed activation leaves the server inactive, in the manager
		// and in the database: nothing half-activated keeps being dialled.
		if err := svc.mgr.Refresh(ctx, id, mcpclient.Interactive); err != nil {
			if _, derr := svc.mgr.SetActive(id, false); derr != nil {
				return errors.Join(Wrap(Unavailable, err), derr)
			}
			return Wrap(Unavailable, fmt.Errorf("%q was not activated and stays inactive: %w", rec.Name, err))
		}
	}
	rec.Active = cfg.Active
	return svc.db.PutMCPServer(rec)
}

// SetCallTimeout sets how long each tool call of the server may run (SPEC
// B11); 0 restores the default. It persists the choice and applies it to
// the next call.
func (svc *MCP) SetCallTimeout(id string, d time.Duration) error {
	rec, err := svc.serverByID(id)
	if err != nil {
		return err
	}
	rec.CallTimeoutMS = d.Milliseconds()
	cfg := toConfig(rec)
	if st, ok := svc.mgr.Server(id); ok {
		cfg.Active = st.Config.Active
	}
	if err := cfg.Validate(); err != nil {
		return Wrap(Usage, err)
	}
	if err := svc.db.PutMCPServer(rec); err != nil {
		return err
	}
	return svc.mgr.Put(cfg)
}

// Remove deletes a server's configuration, catalog, selections and secret.
func (svc *MCP) Remove(ctx context.Context, id string) error {
	if err := svc.mgr.Remove(ctx, id); err != nil {
		return err
	}
	svc.labels.drop()
	if err := svc.db.DeleteMCPServer(id); err != nil {
		return err
	}
	if err := svc.db.DeleteServerSkills(id, mcpclient.RecordBlobs); err != nil {
		return fmt.Errorf("removed the server, but not its skill approvals and pinned skill files: %w", err)
	}
	if svc.secrets != nil {
		if err := svc.secrets.Delete(ctx, SecretKey(id)); err != nil {
			return fmt.Errorf("removed the server, but not its secret: %w", err)
		}
	}
	return nil
}

// enabledTools keeps the tools the person has not turned off for the
// conversation convID (Settings › Tools). It reads the database, never an
// MCP server: a submission never waits on one (SPEC B5). An unreadable
// selection offers nothing rather than everything.
func enabledTools(db *store.DB, convID string, tools []tool.Tool) []tool.Tool {
	off, err := db.DisabledTools(convID)
	if err != nil {
		return nil
	}
	var out []tool.Tool
	for _, t := range tools {
		if !off[t.Def().Identity] {
			out = append(out, t)
		}
	}
	return out
}

// Label names the server of a tool identity for listings and tool_search:
// the person's label for an MCP server, disambiguated and neutralised
// (ToolLabels), "built-in" for vouch's own tools.
func (svc *MCP) Label(identity string) string { return svc.ToolLabels().Server(identity) }

// ToolRow is one catalog entry as `vouch tools` and the TUI list it.
type ToolRow struct {
	Identity       string   `json:"identity"`
	WireName       string   `json:"wire_name"`
	Server         string   `json:"server"`
	Name           string   `json:"name"`
	Title          string   `json:"title,omitempty"`
	Classification string   `json:"classification"`
	Status         string   `json:"status"`
	Executable     bool     `json:"executable"`
	Claims         []string `json:"server_claims,omitempty"`
	Description    string   `json:"description,omitempty"`
	// Changed says the tool's definition is not the one its rule pinned
	// (SPEC D8): the rule does not apply until the person classifies it
	// again.
	Changed bool `json:"changed,omitempty"`
	// Warning flags a name whose letters mix scripts (Cyrillic or Greek
	// look-alikes in a Latin name; safetext.MixedScripts), which may
	// imitate another tool (issue 14 item 7).
	Warning string `json:"warning,omitempty"`
}

// Tools lists built-in and MCP tools with the wire names a run offering all
// of them would freeze (SPEC C1, C2).
func (svc *MCP) Tools(builtins []tool.Tool) []ToolRow {
	// The classification comes from the same snapshot a run would freeze
	// (SPEC D1). Unreadable rules need no error here: that snapshot asks
	// for everything and every summary says the policy could not be read.
	snap, _ := loadSnapshot(svc.db, "")
	var rows []ToolRow
	for _, t := range builtins {
		d := t.Def()
		rows = append(rows, ToolRow{Identity: d.Identity, Server: BuiltinLabel, Name: strings.TrimPrefix(d.Identity, "builtin:"),
			Classification: snap.Summary(d.Identity, ""), Status: "available", Executable: true, Description: firstLine(d.Description)})
	}
	for _, e := range svc.mgr.Tools() {
		rows = append(rows, ToolRow{Identity: e.Identity, Server: e.ServerName, Name: e.Name, Title: e.Title,
			Classification: snap.Summary(e.Identity, e.Digest), Status: string(e.Status), Executable: e.Executable,
			Claims: Claims(e.Annotations), Description: firstLine(e.Description), Changed: snap.Changed(e.Identity, e.Digest),
			Warning: safetext.MixedScripts(e.Name)})
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.Identity
	}
	wire, err := tool.WireNames(ids)
	if err == nil {
		inv := make(map[string]string, len(wire))
		for w, id := range wire {
			inv[id] = w
		}
		for i := range rows {
			rows[i].WireName = inv[rows[i].Identity]
		}
	}
	return rows
}

// Claims words a tool's annotations as the server's unverified claims.
func Claims(ann map[string]any) []string {
	var out []string
	for k, v := range ann {
		b, err := json.Marshal(v)
		if err != nil {
			continue
		}
		out = append(out, k+": "+string(b))
	}
	sort.Strings(out)
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// hostOf returns the host of an endpoint URL, for labels.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// Manager is the MCP client manager: connections, catalogs, calls.
func (svc *MCP) Manager() *mcpclient.Manager { return svc.mgr }
