package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"vouch/agent/agenttest"
)

// TestContinueTrimmedConversationExtendsA6 is SPEC A6 through the
// product's own wiring, for a conversation past the window: 1,200 stored
// messages over a 4,096-token window, continued four times with `vouch
// run --continue`, each run a new process's worth of client. The first run
// cuts the conversation; the state database keeps where, so every later
// request begins where the first did and extends the one before. Before,
// each run cut afresh from its own end, and every request began later
// than the one before.
func TestContinueTrimmedConversationExtendsA6(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(4096))
	defer model.Close()
	state := t.TempDir()
	seedMessages(t, state, 1200)
	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("conversations --json: %v, %s", err, js)
	}
	flags := []string{"--model-url", model.URL(), "--model", "m", "run", "--continue", rows[0].ID}
	for _, q := range []string{"what did we decide?", "and then?", "why?", "what next?"} {
		cli(t, state, "", exitOK, append(flags, q)...)
	}
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d chat requests, want 4", len(reqs))
	}
	if len(reqs[0].Messages) > 1000 {
		t.Fatalf("the first request carries %d messages: the conversation should outgrow the 4,096-token window", len(reqs[0].Messages))
	}
	assertRequestsExtend(t, reqs)
}

// assertRequestsExtend fails unless every request carries all of the one
// before's messages first, unchanged (SPEC A6).
func assertRequestsExtend(t *testing.T, reqs []agenttest.Request) {
	t.Helper()
	for k := 1; k < len(reqs); k++ {
		prev, next := reqs[k-1].Messages, reqs[k].Messages
		if len(next) <= len(prev) {
			t.Fatalf("request %d carries %d messages, request %d carried %d: it must extend it", k, len(next), k-1, len(prev))
		}
		for i := range prev {
			if !reflect.DeepEqual(prev[i], next[i]) {
				t.Fatalf("request %d differs from request %d at message %d of %d:\n  was %.80q\n  now %.80q",
					k, k-1, i, len(prev), prev[i].Content, next[i].Content)
			}
		}
	}
}
