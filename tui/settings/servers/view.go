package servers

import (
	"net/url"

	"vouch/safetext"
)

// Rendering helpers shared by the panes of Settings › Tools & Workflows.
// Everything a server supplied passes through safetext before it is drawn,
// even though Backend promises neutralised views (SPEC D3).

// endpointHost is the host of an endpoint URL, or the URL itself when it
// does not parse; neutralised and cut to width.
func endpointHost(raw string, width int) string {
	raw = safetext.Line(raw, 0)
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		raw = u.Host
	}
	return safetext.Line(raw, width)
}
