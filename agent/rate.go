package agent

import "time"

// minRateSpan is the shortest generation span a rate is computed over
// (issue 18 item 3): a reply that arrived in one burst — one read, a
// buffering proxy, a server that withholds text and sends it at the end —
// spans microseconds, and tokens over that span is a fiction ("42753
// tok/s"). 100 ms is a few tokens even on a fast GPU; below it no rate is
// shown rather than a wrong one.
const minRateSpan = 100 * time.Millisecond

// generationRate is a turn's generation rate without the server's timings:
// tokens generated after the first over the span from the first visible
// delta to the last delta or the usage chunk, whichever came later (a
// server that withholds text — Ollama drops a tool call it cannot parse,
// yet counts it — is still generating after the last visible delta). It
// is 0 when there is nothing to measure: fewer than two tokens, or a span
// under minRateSpan. Where the server reports timings
// (llama.cpp's predicted_per_second) that figure is used instead.
func generationRate(tokens int, first, last, usageAt time.Time) float64 {
	if tokens < 2 || first.IsZero() {
		return 0
	}
	end := last
	if usageAt.After(end) {
		end = usageAt
	}
	d := end.Sub(first)
	if d < minRateSpan {
		return 0
	}
	return float64(tokens-1) / d.Seconds()
}
