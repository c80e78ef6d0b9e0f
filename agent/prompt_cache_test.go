package agent

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// conversation20 runs a 20-turn conversation through one Chat on a fresh
// client against a 2,048-token window, with tools that must be deferred,
// and returns the chat requests the server received.
func conversation20(t *testing.T) []agenttest.Request {
	t.Helper()
	return conversation20On(t, false)
}

// conversation20On is conversation20; with freshClients every turn runs
// on a new client over the same transcript, as consecutive `vouch run
// --continue` processes do, or vouch started again.
func conversation20On(t *testing.T, freshClients bool) []agenttest.Request {
	t.Helper()
	reply := strings.Repeat("The build passed and the tests are green again today. ", 5)
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words(reply)}}},
		agenttest.WithModels("m"))
	defer srv.Close()
	transcript := NewMemoryTranscript()
	newChat := func() *Chat {
		return NewChat(ChatConfig{Client: NewClient(srv.URL(), "", nil), Transcript: transcript,
			Tools: bulkyTools(12, nil), SystemPrompt: "You are vouch's assistant.", Now: fixedNow,
			ContextWindow: func(context.Context, string) (int, string, error) { return 2048, WindowFromProfile, nil }})
	}
	chat := newChat()
	for i := range 20 {
		if freshClients {
			chat = newChat()
		}
		events, err := chat.Send(context.Background(), "m", fmt.Sprintf("Question %d: how is the build doing after the change to the parser and the tests?", i))
		if err != nil {
			t.Fatal(err)
		}
		for ev := range events {
			if d, ok := ev.(Done); ok && d.Reason != StopDone {
				t.Fatalf("turn %d: %s %v", i, d.Reason, d.Err)
			}
		}
	}
	return srv.Requests()
}

// TestPromptsExtendEachOther (SPEC A6; issue 17 item 4): over 20 turns
// that outgrow the window, each request is a byte-for-byte extension of
// the previous one — same system prompt and listing, same tools in the
// same order, the previous messages first — except at the few turns where
// the conversation is trimmed, which cut in a large step (before, one
// exchange was dropped every turn once the window was full).
func TestPromptsExtendEachOther(t *testing.T) {
	assertFewTrims(t, conversation20(t))
}

// TestPromptsExtendAcrossClients (SPEC A6; issue 17): the same holds when
// every turn runs on a new client — consecutive `vouch run --continue`
// processes, or vouch started again — because the transcript keeps where
// the conversation was cut (CutKeeper). Without it, 9 of the 19 requests
// began differently from the one before.
func TestPromptsExtendAcrossClients(t *testing.T) {
	assertFewTrims(t, conversation20On(t, true))
}

// assertFewTrims fails unless the requests share their tools and system
// prompt and all but at most 3 (and at least 1) extend the one before.
func assertFewTrims(t *testing.T, reqs []agenttest.Request) {
	t.Helper()
	if len(reqs) != 20 {
		t.Fatalf("%d requests, want 20", len(reqs))
	}
	trims := 0
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1], reqs[i]
		if !reflect.DeepEqual(prev.Tools, cur.Tools) {
			t.Errorf("turn %d: tools changed: %v -> %v", i, prev.Tools, cur.Tools)
		}
		if len(cur.Messages) > 0 && len(prev.Messages) > 0 && !reflect.DeepEqual(cur.Messages[0], prev.Messages[0]) {
			t.Errorf("turn %d: system prompt changed", i)
		}
		extends := len(cur.Messages) >= len(prev.Messages)
		for j := 0; extends && j < len(prev.Messages); j++ {
			extends = reflect.DeepEqual(prev.Messages[j], cur.Messages[j])
		}
		if !extends {
			trims++
		}
	}
	if trims == 0 {
		t.Fatal("no request was trimmed: the conversation should outgrow the 2,048-token window")
	}
	if trims > 3 {
		t.Errorf("%d of 19 requests did not extend the previous one, want at most 3 (trims in large steps)", trims)
	}
	t.Logf("%d trim steps in 20 turns", trims)
}

// TestIdenticalRunsIdenticalBodies (SPEC A6; issue 17 item 4): the same
// conversation on two fresh clients sends the same request bodies, byte
// for byte, tools and deferral listing included.
func TestIdenticalRunsIdenticalBodies(t *testing.T) {
	a, b := conversation20(t), conversation20(t)
	if len(a) != len(b) {
		t.Fatalf("%d and %d requests", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].Body, b[i].Body) {
			t.Errorf("turn %d: the bodies differ:\n%s\n%s", i, a[i].Body, b[i].Body)
		}
	}
}

// TestPlanStableWhileCountsFillIn (SPEC A6; issue 17 item 4: "the inline
// set was seen to differ between identical runs"): a plan made while only
// some of the tools' counts are known from the server is the plan of the
// estimate alone, so the tools sent and the deferral listing do not
// change from run to run while the background counting fills in.
func TestPlanStableWhileCountsFillIn(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("fine")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"))
	defer srv.Close()
	tools := bulkyTools(12, nil)
	send := func(store *mapCounts) agenttest.Request {
		c := NewClient(srv.URL(), "", nil)
		c.SetCountStore(store)
		if _, err := c.Kind(context.Background()); err != nil {
			t.Fatal(err)
		}
		n := len(srv.Requests())
		_, done := collect(t, startRun(context.Background(), c, RunSpec{Model: "m", ContextWindow: 6144, SystemPrompt: "You are vouch's assistant.",
			History: []Message{{Role: RoleUser, Content: "hello"}}, Tools: tools}))
		if done.Reason != StopDone {
			t.Fatalf("%s %v", done.Reason, done.Err)
		}
		c.waitCounting()
		return srv.Requests()[n]
	}
	full := &mapCounts{m: map[string]int{}}
	first := send(full) // nothing known: the estimate's plan; the counts are then kept
	if len(full.m) < 3 {
		t.Fatalf("only %d counts kept", len(full.m))
	}
	partial := &mapCounts{m: map[string]int{}}
	k := 0
	for key, n := range full.m {
		if k%2 == 0 {
			partial.m[key] = n
		}
		k++
	}
	again := send(partial)
	if !reflect.DeepEqual(first.Tools, again.Tools) || !reflect.DeepEqual(first.Messages[0], again.Messages[0]) {
		t.Errorf("with half the counts known the plan changed:\ntools %v\n   -> %v\nsystem %q\n    -> %q",
			first.Tools, again.Tools, first.Messages[0].Content, again.Messages[0].Content)
	}
}
