package tuiwire

import (
	"context"
	"fmt"

	"vouch/tui/settings"
	"vouch/tui/settings/servers"
)

var _ servers.Watcher = (*Servers)(nil)

// WaitServers returns the configured servers once they differ from shown:
// a server warmed up, connected, went down or changed its tool count
// (SPEC B5); or ctx's error once ctx ends. It reads the manager's cached
// state again each time the manager says it changed (Changed), and never
// waits on a server.
func (t *Servers) WaitServers(ctx context.Context, shown []settings.ServerView) ([]settings.ServerView, error) {
	mgr := t.s.MCP().Manager()
	for {
		changed := mgr.Changed() // before reading: a change in between is not missed
		now, err := t.ListServers(ctx)
		if err != nil {
			return nil, err
		}
		if !settings.SameServers(now, shown) {
			return now, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("stopped following the MCP servers: %w", ctx.Err())
		case <-changed:
		}
	}
}
