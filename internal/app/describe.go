package app

import (
	"context"
	"fmt"
	"strings"

	"vouch/internal/view"
	"vouch/mcpclient"
)

// ToolDescription is view.ToolDescription (internal/view), shared with the interface.
type ToolDescription = view.ToolDescription

// DescribeTool describes identity from the cached catalog, including the
// app-only tools an MCP App view may call (SPEC J2).
func (a *App) DescribeTool(identity string) (ToolDescription, error) {
	mgr := a.mcp.mgr
	for _, e := range mgr.Tools() {
		if e.Identity != identity {
			continue
		}
		d := ToolDescription{ServerName: e.ServerName, Title: e.Title, Claims: Claims(e.Annotations), Digest: e.Digest}
		if st, ok := mgr.Server(e.ServerID); ok {
			d.ServerHost = hostOf(st.Config.URL)
		}
		return d, nil
	}
	if strings.HasPrefix(identity, "builtin:") {
		return ToolDescription{ServerName: BuiltinLabel}, nil // as every list and the transcript label it (issue 28 item 15)
	}
	if d, ok := a.describeAppTool(identity); ok { // app-only: not in Tools (SPEC J2)
		return d, nil
	}
	return ToolDescription{}, fmt.Errorf("the tool %s is no longer in any server's catalog", identity)
}

// describeAppTool describes an app-only tool for the approval pane: the
// views may call tools that Tools never lists.
func (a *App) describeAppTool(identity string) (ToolDescription, bool) {
	serverID, name, ok := mcpclient.ParseIdentity(identity)
	if !ok {
		return ToolDescription{}, false
	}
	e, ok := a.mcp.mgr.AppTool(serverID, name)
	if !ok {
		return ToolDescription{}, false
	}
	d := ToolDescription{ServerName: e.ServerName, Title: e.Title, Claims: Claims(e.Annotations), Digest: e.Digest}
	if st, ok := a.mcp.mgr.Server(serverID); ok {
		d.ServerHost = hostOf(st.Config.URL)
	}
	return d, true
}

// WaitToolChange waits until the definition identity's server serves is
// no longer the one of digest — it changed, or it is gone — and describes
// it as served now (SPEC D8: an approval pane open while its tool changes
// shows what it says now). It returns ctx's error when nothing changed
// before ctx ended. It never waits on the network: it follows the
// manager's published catalogs.
func (a *App) WaitToolChange(ctx context.Context, identity, digest string) (ToolDescription, error) {
	for {
		changed := a.mcp.mgr.Changed()
		d, err := a.DescribeTool(identity)
		if err != nil || d.Digest != digest {
			return d, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ToolDescription{}, ctx.Err()
		}
	}
}
