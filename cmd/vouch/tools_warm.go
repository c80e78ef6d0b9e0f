package main

import (
	"context"
	"time"

	"vouch/mcpclient"
)

// toolsWarmBound bounds how long `vouch tools` and `vouch tools plan` wait
// for active servers to refresh before printing (issue 16 item 10; SPEC
// B5): a live server answers well within it, a dead one cannot stall the
// command, and what it could not confirm shows from the cached catalog,
// marked stale.
const toolsWarmBound = time.Second

// warmBriefly refreshes every active server within toolsWarmBound.
func warmBriefly(ctx context.Context, m *mcpclient.Manager) {
	ctx, cancel := context.WithTimeout(ctx, toolsWarmBound)
	defer cancel()
	m.WarmAll(ctx)
}
