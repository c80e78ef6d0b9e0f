package agent

import (
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

// TestGenerationRate (issue 18 item 3; SPEC L3): the rate without server
// timings is tokens over the generation's span up to the usage chunk, and
// nothing at all when the span is too short to measure.
func TestGenerationRate(t *testing.T) {
	t0 := fixedNow()
	for _, tc := range []struct {
		name                 string
		tokens               int
		first, last, usageAt time.Duration // after t0; -1: absent
		want                 float64
	}{
		{"a reply in one burst", 200, 0, 40 * time.Microsecond, 50 * time.Microsecond, 0},
		{"just under the bound", 50, 0, 99 * time.Millisecond, -1, 0},
		{"one token", 1, 0, 0, time.Second, 0},
		{"no visible delta", 30, -1, -1, time.Second, 0},
		{"a streamed reply", 101, 0, 2 * time.Second, 2 * time.Second, 50},
		{"withheld text until the usage chunk", 41, 0, 100 * time.Millisecond, 4 * time.Second, 10},
	} {
		at := func(d time.Duration) time.Time {
			if d < 0 {
				return time.Time{}
			}
			return t0.Add(d)
		}
		if got := generationRate(tc.tokens, at(tc.first), at(tc.last), at(tc.usageAt)); got != tc.want {
			t.Errorf("%s: rate %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBurstReplyHasNoRate (issue 18 item 3): a reply that arrives in one
// write from a server without timings reports no rate, not tens of
// thousands of tokens per second; llama.cpp's own timings are used as
// they come.
func TestBurstReplyHasNoRate(t *testing.T) {
	words := strings.Repeat("word ", 200)
	_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Burst(words)}}, RunSpec{})
	u := eventsOf[Usage](evs)
	if done.Reason != StopDone || len(u) != 1 || u[0].CompletionTokens < 200 || text(evs) != words {
		t.Fatalf("done %s %v, usage %+v, %d bytes of text", done.Reason, done.Err, u, len(text(evs)))
	}
	if u[0].TokensPerSecond != 0 {
		t.Errorf("a reply in one burst reports %.0f tok/s, want none", u[0].TokensPerSecond)
	}
	_, evs, _ = runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Burst(words)}}, RunSpec{},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithTokensPerSecond(37))
	if u := eventsOf[Usage](evs); len(u) != 1 || u[0].TokensPerSecond != 37 {
		t.Errorf("llama.cpp timings: usage %+v, want its 37 tok/s", u)
	}
}
