package agent

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"vouch/agent/agenttest"
)

// sessionOf is a new client on srv (a new session process) keeping its
// state in kept, with the server probed.
func sessionOf(t *testing.T, srv *agenttest.Server, kept *keptState, ct *countingTransport) *Client {
	t.Helper()
	c := NewClient(srv.URL(), "", &http.Client{Transport: ct})
	c.SetCountStore(kept)
	if _, err := c.Kind(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

// awaitKept waits for the state to be written once.
func awaitKept(t *testing.T, kept *keptState) {
	t.Helper()
	select {
	case <-kept.puts:
	case <-time.After(testTimeout):
		t.Fatal("nothing was kept in the state after the run")
	}
}

// sentTools is the tools array of the server's request i.
func sentTools(t *testing.T, srv *agenttest.Server, i int) []openai.Tool {
	t.Helper()
	var body struct {
		Tools []openai.Tool `json:"tools"`
	}
	if err := json.Unmarshal(srv.Requests()[i].Body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Tools
}

// TestPlansKeptAcrossSessions (SPEC F1, A6; issue 29 item 2): a new
// session plans the tools from what an earlier one kept in the state —
// the request carries the kept capped definitions, shown by one altered
// in the state — and a kept entry that cannot be read is planned again
// from the tool itself. Untouched, the two sessions send the same tools
// byte for byte.
func TestPlansKeptAcrossSessions(t *testing.T) {
	srv := okServer(t)
	kept := newKeptState()
	kept.puts = make(chan struct{}, 16)
	send := func(c *Client) {
		chat := NewChat(ChatConfig{Client: c, Transcript: NewMemoryTranscript(), Tools: bulkyTools(5, nil), Now: fixedNow})
		if d := doneOf(t, chat, context.Background(), "hello"); d.Reason != StopDone {
			t.Fatalf("run ended %v: %v", d.Reason, d.Err)
		}
		c.waitCounting()
	}
	send(sessionOf(t, srv, kept, newCountingTransport()))
	awaitKept(t, kept)
	send(sessionOf(t, srv, kept, newCountingTransport()))
	first, second := srv.Requests()[0].Body, srv.Requests()[1].Body
	var a, b struct {
		Tools json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(first, &a) != nil || json.Unmarshal(second, &b) != nil || len(a.Tools) == 0 || string(a.Tools) != string(b.Tools) {
		t.Fatalf("the second session sent other tools:\n%s\nthan the first:\n%s", b.Tools, a.Tools)
	}

	kept.mu.Lock()
	var altered, broken string
	for k, v := range kept.plans {
		e, err := decodePlanEntry(v)
		if err != nil {
			continue // the anchor
		}
		switch {
		case altered == "":
			altered = e.wire
			e.capped.Description = "as kept in the state"
			e.entry = toolEntryJSON(e.wire, e.capped)
			kept.plans[k] = encodePlanEntry(e)
		case broken == "":
			broken = e.wire
			kept.plans[k] = []byte{planEntryVersion, 0xff}
		}
	}
	kept.mu.Unlock()
	if altered == "" || broken == "" {
		t.Fatalf("the state kept %d values, want one per tool", len(kept.plans))
	}
	send(sessionOf(t, srv, kept, newCountingTransport()))
	own := map[string]string{}
	for _, tl := range sentTools(t, srv, 0) {
		own[tl.Function.Name] = tl.Function.Description
	}
	for _, tl := range sentTools(t, srv, 2) {
		switch d := tl.Function.Description; {
		case tl.Function.Name == altered && d != "as kept in the state":
			t.Errorf("%s was sent as %q, not as the state kept it: the session planned it again", altered, d)
		case tl.Function.Name == broken && (d != own[broken] || d == ""):
			t.Errorf("%s, kept unreadably, was sent as %q, want its own description %q", broken, d, own[broken])
		}
	}
}

// TestAnchorKeptAcrossSessions (SPEC A6, F4; issue 29 item 2): the first
// Enter of a new session, in a conversation an earlier session left, needs
// no counting round trip: the prompt it extends was counted by the server
// then, and the state kept that count. Without it, the prompt is rendered
// and counted (two round trips).
func TestAnchorKeptAcrossSessions(t *testing.T) {
	e := newEnterBench(t, 10, 20, 32768)
	kept := newKeptState()
	kept.puts = make(chan struct{}, 16)
	transcript := NewMemoryTranscript(longHistory(10)...)
	session := func(kept CountStore) {
		e.connect(transcript)
		e.client.SetCountStore(kept)
		if _, _, err := e.client.ContextWindow(context.Background(), "demo-model"); err != nil {
			t.Fatal(err)
		}
	}
	session(kept)
	e.send(t, "earlier")
	awaitKept(t, kept)
	session(kept)
	if trips := e.send(t, "first after launch").trips; trips != 0 {
		t.Errorf("the first Enter of a new session took %d counting round trips, want 0", trips)
	}
	session(&mapCounts{m: map[string]int{}})
	if trips := e.send(t, "first without a kept anchor").trips; trips != 2 {
		t.Errorf("without a kept anchor the first Enter took %d counting round trips, want 2", trips)
	}
	for _, bad := range [][]byte{nil, {anchorVersion}, append([]byte{anchorVersion}, make([]byte, 70)...), {2, 1, 2, 3}} {
		if a, ok := decodeAnchor(bad); ok {
			t.Errorf("decodeAnchor(%x) = %+v, want not an anchor", bad, a)
		}
	}
	a := promptAnchor{n: 12, tokens: 3456}
	a.tools[0], a.last[31] = 1, 2
	if got, ok := decodeAnchor(encodeAnchor(a)); !ok || got != a {
		t.Errorf("an anchor read back as %+v (%v), want %+v", got, ok, a)
	}
}

// TestKeptValuesTruncated: a kept plan entry or anchor cut anywhere reads
// as none (and is planned or counted again), never as a shorter value.
func TestKeptValuesTruncated(t *testing.T) {
	e := planEntry{wire: "srv_tool", entry: `{"type":"function"}`}
	e.capped.Description, e.capped.Parameters = "does things", json.RawMessage(`{"type":"object"}`)
	full := encodePlanEntry(e)
	if got, err := decodePlanEntry(full); err != nil || got.wire != e.wire || got.entry != e.entry ||
		got.capped.Description != e.capped.Description || string(got.capped.Parameters) != string(e.capped.Parameters) {
		t.Fatalf("read back as %+v, %v", got, err)
	}
	for i := range full {
		if got, err := decodePlanEntry(full[:i]); err == nil {
			t.Errorf("%d of %d bytes read as %+v", i, len(full), got)
		}
	}
	anchor := encodeAnchor(promptAnchor{n: 300, tokens: 70000})
	for i := range anchor {
		if got, ok := decodeAnchor(anchor[:i]); ok {
			t.Errorf("%d of %d bytes of an anchor read as %+v", i, len(anchor), got)
		}
	}
}

// okServer is a loopback llama.cpp fake with a 32k window that answers
// every turn "ok", closed when tb ends.
func okServer(tb testing.TB) *agenttest.Server {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: []agenttest.Step{agenttest.Text("ok")}}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(32768))
	tb.Cleanup(srv.Close)
	return srv
}
