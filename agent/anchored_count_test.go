package agent

import (
	"strings"
	"testing"
)

// TestAnchoredPromptNotCounted (SPEC F4, A6; issue 17 Speed): against
// llama.cpp, the first request of a conversation is rendered and counted
// exactly (two round trips). The next one extends that prompt: it is
// counted as the server's own count of the prompt it extends plus the
// conservative estimate of what was added, and sent with no counting
// round trip — its max_tokens still never exceeds the window's real free
// space. A message that brings the prompt close to the window is counted
// exactly again, and the request after it needs no counting again.
func TestAnchoredPromptNotCounted(t *testing.T) {
	const window = 8192
	e := newEnterBench(t, 41, 3, window)
	first := e.send(t, "first question")
	u, trips := first.usage, first.trips
	if trips != 2 {
		t.Fatalf("first send: %d counting round trips, want 2 (render and count)", trips)
	}
	if u.Estimated || u.PromptTokens == 0 {
		t.Fatalf("first send: usage %+v, want the server's count", u)
	}
	second := e.send(t, "second question")
	u, trips = second.usage, second.trips
	if trips != 0 {
		t.Errorf("second send: %d counting round trips, want none (it extends the counted prompt)", trips)
	}
	reqs := e.srv.Requests()
	last := reqs[len(reqs)-1]
	if free := window - u.PromptTokens; last.MaxTokens > free || last.MaxTokens <= 0 {
		t.Errorf("second send: max_tokens %d, the window's free space is %d", last.MaxTokens, free)
	}
	if u.PromptEstimate < u.PromptTokens {
		t.Errorf("second send: counted %d, the server counted %d: the anchored count must not be under", u.PromptEstimate, u.PromptTokens)
	}

	// A message that takes most of what is left of the room.
	room := window - replyReserve(window)
	target := (room - u.PromptTokens) * 9 / 10
	var b strings.Builder
	for EstimateTokens(b.String())+messageOverheadTokens < target {
		b.WriteString("the build and its tests pass again ")
	}
	near := e.send(t, b.String())
	u, trips = near.usage, near.trips
	if trips != 2 {
		t.Errorf("near the window: %d counting round trips, want 2 (counted exactly)", trips)
	}
	if u.PromptTokens+replyReserve(window) > window {
		t.Errorf("near the window: the server counted %d of a %d window", u.PromptTokens, window)
	}
	if trips = e.send(t, "short again").trips; trips != 0 {
		t.Errorf("after it: %d counting round trips, want none", trips)
	}
}
