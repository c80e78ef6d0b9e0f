package main

import (
	"context"
	"fmt"
	"io"

	"vouch/mcpclient"
	"vouch/safetext"
)

// toolsWarmBound bounds how long `vouch tools`, `vouch tools plan`,
// `vouch run` and `vouch server list` wait for active servers to refresh
// before going on (issue 16 item 10, issue 24 item 2; SPEC B5): one bound
// for the whole warm-up, which a live server answers well within and no
// number of dead ones can stretch. What a server could not confirm comes
// from its cached catalog: offered when the server is merely slow, marked
// stale (not offered) when it failed.
const toolsWarmBound = mcpclient.WarmBound

// warmBriefly refreshes every active server within toolsWarmBound and
// returns the servers whose tools are not offered, and why.
func warmBriefly(ctx context.Context, m *mcpclient.Manager) []mcpclient.Absent {
	return m.WarmFor(ctx, toolsWarmBound)
}

// reportAbsent writes one line to w for each active server whose tools
// are not offered, naming it and saying why (issue 24 items 2 and 6).
func reportAbsent(w io.Writer, absent []mcpclient.Absent) error {
	for _, a := range absent {
		if _, err := fmt.Fprintf(w, "vouch: MCP server %q: its tools are not offered: %s\n",
			safetext.Line(a.Name, 60), safetext.Line(a.Why, 300)); err != nil {
			return fmt.Errorf("write to stderr: %w", err)
		}
	}
	return nil
}
