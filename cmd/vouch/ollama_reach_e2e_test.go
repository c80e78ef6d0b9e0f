package main

import (
	"path/filepath"
	"testing"

	"vouch/e2e/ollama"
	"vouch/store"
)

// testReachExtendsOnOllama (SPEC A3, A6, K4; issue 29 item 4) is the read
// to the window's reach against the real Ollama, through the built binary
// and its session: a stored conversation of 1,200 messages, past the
// 4,096-token window of tiny-chat-4k, sent one message from each of two
// sessions. The first session's read ahead keeps the messages' weights
// (asserted in the state once it has ended), so the second reads its tail
// only back to the window's reach by them — and its request still carries
// the first one's messages first, byte for byte, as it would had it read
// the whole tail: the cut the first session kept is among what it read.
func testReachExtendsOnOllama(t *testing.T, s *ollama.Server) {
	bin := buildVouch(t)
	state := shortState(t)
	seedMessages(t, state, 1200)
	var rec chatRecorder
	base := rec.start(t, s.Base())
	session := func(text string) {
		t.Helper()
		term, stop := launchShown(t, bin, state, "--model-url", base, "--model", "tiny-chat-4k:latest")
		defer stop()
		typeEchoed(t, term, text)
		from := term.Len()
		if _, err := term.Write([]byte("\r")); err != nil {
			t.Fatal(err)
		}
		// The reply has ended once the status line shows its usage, with
		// what the window left out (the conversation outgrows it); the
		// session is then stopped as at logout.
		if err := term.WaitForFrom(from, "earlier)", e2eTimeout); err != nil {
			t.Fatalf("the reply did not end: %v; output so far: %q", err, term.Output())
		}
	}
	session("what did we decide?")
	db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	convs, err := db.Conversations()
	if err != nil || len(convs) == 0 {
		t.Fatalf("conversations: %v, %d", err, len(convs))
	}
	_, weights, err := db.TailMessagesWeighed(convs[0].ID, store.TailOptions{}, nil)
	kept := 0
	for _, w := range weights {
		if w != nil {
			kept++
		}
	}
	if closeErr := db.Close(); err != nil || closeErr != nil {
		t.Fatal(err, closeErr)
	}
	if kept < 64 {
		t.Fatalf("the first session kept %d weights, want the walk's (hundreds): the second would not read to the reach", kept)
	}
	session("and then?")
	reqs := rec.messages(t)
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests, want 2", len(reqs))
	}
	if len(reqs[0]) > 600 {
		t.Fatalf("the first request carries %d messages: the conversation should outgrow the 4,096-token window", len(reqs[0]))
	}
	prev, next := reqs[0], reqs[1]
	if len(next) <= len(prev) {
		t.Fatalf("the second session's request carries %d messages, the first's %d: it must extend it", len(next), len(prev))
	}
	for i := range prev {
		if string(prev[i]) != string(next[i]) {
			t.Fatalf("the second session's request differs from the first's at message %d of %d:\n  was %.120s\n  now %.120s", i, len(prev), prev[i], next[i])
		}
	}
}
