package tuiwire

import (
	"context"
	"fmt"

	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/tui"
	"vouch/tui/settings"
	"vouch/tui/settings/servers"
)

// Servers implements the TUI's MCP servers pane over the session's MCP
// service: the same operations as `vouch server` and `vouch tools`; and
// a server's skills (server_skills.go).
type Servers struct{ s *app.App }

var _ tui.Servers = (*Servers)(nil)

// NewServers serves the MCP servers pane over the session s.
func NewServers(s *app.App) *Servers { return &Servers{s: s} }

func (t *Servers) ListServers(context.Context) ([]settings.ServerView, error) {
	var out []settings.ServerView
	for _, st := range t.s.MCP().Manager().Servers() {
		out = append(out, serverView(st))
	}
	return out, nil
}

func serverView(st mcpclient.ServerState) settings.ServerView {
	v := settings.ServerView{
		ID: st.Config.ID, Name: st.Config.Name, URL: st.Config.URL, HeaderName: st.Config.HeaderName,
		HasSecret: st.Config.HeaderName != "", Active: st.Config.Active, Status: settings.ServerStatus(st.Status), Err: st.Err,
	}
	if st.HasCatalog {
		v.ToolCount, v.FetchedAt = len(st.Catalog.Tools), st.Catalog.FetchedAt
	}
	return v
}

func (t *Servers) SaveServer(ctx context.Context, in servers.Input) (settings.ServerView, error) {
	rec, err := t.s.MCP().Save(ctx, in.ID, in.Name, in.URL, in.HeaderName, in.Secret)
	if err != nil {
		return settings.ServerView{}, err
	}
	st, ok := t.s.MCP().Manager().Server(rec.ID)
	if !ok {
		return settings.ServerView{}, fmt.Errorf("the server %q was saved but is not loaded; reopen vouch", rec.Name)
	}
	return serverView(st), nil
}

func (t *Servers) TestServer(ctx context.Context, id string) (servers.TestView, error) {
	rep, err := t.s.MCP().Test(ctx, id)
	if err != nil {
		return servers.TestView{}, err
	}
	v := servers.TestView{
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

func (t *Servers) SetServerActive(ctx context.Context, id string, active bool) error {
	return t.s.MCP().SetActive(ctx, id, active)
}

func (t *Servers) RemoveServer(ctx context.Context, id string) error {
	return t.s.MCP().Remove(ctx, id)
}

func (t *Servers) Tools(context.Context) ([]settings.ToolView, error) {
	tools, err := t.s.ConversationToolViews()
	return tools, err
}

func (t *Servers) SetToolEnabled(_ context.Context, identity string, enabled bool) error {
	return t.s.SetConversationTool(identity, enabled)
}
