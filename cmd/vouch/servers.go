package main

import (
	"context"
	"fmt"
	"strings"

	"vouch/mcpclient"
	"vouch/tui"
)

// tuiServers implements the TUI's MCP servers pane over the session's MCP
// service: the same operations as `vouch server` and `vouch tools`.
type tuiServers struct{ s *session }

var _ tui.Servers = (*tuiServers)(nil)

func (t *tuiServers) ListServers(context.Context) ([]tui.ServerView, error) {
	var out []tui.ServerView
	for _, st := range t.s.mcp.mgr.Servers() {
		out = append(out, serverView(st))
	}
	return out, nil
}

func serverView(st mcpclient.ServerState) tui.ServerView {
	v := tui.ServerView{
		ID: st.Config.ID, Name: st.Config.Name, URL: st.Config.URL, HeaderName: st.Config.HeaderName,
		HasSecret: st.Config.HeaderName != "", Active: st.Config.Active, Status: tui.ServerStatus(st.Status), Err: st.Err,
	}
	if st.HasCatalog {
		v.ToolCount, v.FetchedAt = len(st.Catalog.Tools), st.Catalog.FetchedAt
	}
	return v
}

func (t *tuiServers) SaveServer(ctx context.Context, in tui.ServerInput) (tui.ServerView, error) {
	rec, err := t.s.mcp.save(ctx, in.ID, in.Name, in.URL, in.HeaderName, in.Secret)
	if err != nil {
		return tui.ServerView{}, err
	}
	st, ok := t.s.mcp.mgr.Server(rec.ID)
	if !ok {
		return tui.ServerView{}, fmt.Errorf("the server %q was saved but is not loaded; reopen vouch", rec.Name)
	}
	return serverView(st), nil
}

func (t *tuiServers) TestServer(ctx context.Context, id string) (tui.TestView, error) {
	rep, err := t.s.mcp.test(ctx, id)
	if err != nil {
		return tui.TestView{}, err
	}
	v := tui.TestView{
		ProtocolVersion: rep.ProtocolVersion, Stateless: rep.Stateless, ServerName: rep.ServerName,
		ServerVersion: rep.ServerVersion, Capabilities: rep.Capabilities, Summary: rep.Summary, Elapsed: rep.Elapsed,
	}
	for _, tool := range rep.Tools {
		v.Tools = append(v.Tools, tool.Name)
	}
	for _, r := range rep.Rejected {
		v.Rejected = append(v.Rejected, r.Name+": "+r.Reason)
	}
	return v, nil
}

func (t *tuiServers) SetServerActive(ctx context.Context, id string, active bool) error {
	return t.s.mcp.setActive(ctx, id, active)
}

func (t *tuiServers) RemoveServer(ctx context.Context, id string) error {
	return t.s.mcp.remove(ctx, id)
}

func (t *tuiServers) Tools(context.Context) ([]tui.ToolView, error) {
	convID, _ := t.s.current()
	off, err := t.s.db.DisabledTools(convID)
	if err != nil {
		return nil, err
	}
	var out []tui.ToolView
	for _, tool := range t.s.builtinTools() {
		d := tool.Def()
		out = append(out, tui.ToolView{
			Identity: d.Identity, ServerName: "built-in", Name: strings.TrimPrefix(d.Identity, "builtin:"),
			Description: d.Description, Executable: true, Enabled: !off[d.Identity],
		})
	}
	// Unreadable rules mark nothing here: every call asks anyway.
	snap, _ := loadSnapshot(t.s.db, "")
	for _, e := range t.s.mcp.mgr.Tools() {
		out = append(out, tui.ToolView{
			Identity: e.Identity, ServerID: e.ServerID, ServerName: e.ServerName, Name: e.Name, Title: e.Title,
			Description: e.Description, Executable: e.Executable, Enabled: !off[e.Identity], Claims: claims(e.Annotations),
			Changed: snap.Changed(e.Identity, e.Digest),
		})
	}
	return out, nil
}

func (t *tuiServers) SetToolEnabled(_ context.Context, identity string, enabled bool) error {
	convID, _ := t.s.current()
	return t.s.db.SetToolEnabled(convID, identity, enabled)
}

// describeTool tells the approval pane which server a tool belongs to, from
// the cached catalog: the person's label for the server, its endpoint host,
// and the server's own title and annotations as unverified claims.
func (s *session) describeTool(identity string) (tui.ToolDescription, error) {
	for _, e := range s.mcp.mgr.Tools() {
		if e.Identity != identity {
			continue
		}
		d := tui.ToolDescription{ServerName: e.ServerName, Title: e.Title, Claims: claims(e.Annotations)}
		if st, ok := s.mcp.mgr.Server(e.ServerID); ok {
			d.ServerHost = hostOf(st.Config.URL)
		}
		return d, nil
	}
	if strings.HasPrefix(identity, "builtin:") {
		return tui.ToolDescription{ServerName: "vouch (built-in)"}, nil
	}
	if d, ok := s.describeAppTool(identity); ok { // app-only: not in Tools (SPEC J2)
		return d, nil
	}
	return tui.ToolDescription{}, fmt.Errorf("the tool %s is no longer in any server's catalog", identity)
}
