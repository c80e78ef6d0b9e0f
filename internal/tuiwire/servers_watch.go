package tuiwire

import (
	"context"
	"fmt"
	"time"

	"vouch/tui/settings"
	"vouch/tui/settings/servers"
)

var _ servers.Watcher = (*Servers)(nil)

// serversPoll is how often WaitServers reads the manager's state while a
// page waits on it. The MCP manager publishes its tool snapshot on every
// change but tells no one; reading its state is a lock and a copy, no I/O,
// and happens only while Settings › MCP Servers is shown.
const serversPoll = 200 * time.Millisecond

// WaitServers returns the configured servers once they differ from shown:
// a server warmed up, connected, went down or changed its tool count
// (SPEC B5); or ctx's error once ctx ends. It reads the manager's cached
// state every serversPoll and never waits on a server.
func (t *Servers) WaitServers(ctx context.Context, shown []settings.ServerView) ([]settings.ServerView, error) {
	tick := time.NewTicker(serversPoll)
	defer tick.Stop()
	for {
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
		case <-tick.C:
		}
	}
}
