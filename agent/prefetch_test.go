package agent

import (
	"bytes"
	"context"
	"testing"
)

// TestPrefetchReadsToolsAhead (SPEC F4, L3; issue 29 item 2): what
// showing a conversation prepares (Chat.Prefetch) reads the tools' kept
// plans and the model's kept anchor, so that the first Enter of a new
// session reads neither on its way to the request — and sends exactly
// what a session that prepared nothing sends.
func TestPrefetchReadsToolsAhead(t *testing.T) {
	srv := okServer(t)
	kept := newKeptState()
	kept.puts = make(chan struct{}, 16)
	reads := func() int {
		kept.mu.Lock()
		defer kept.mu.Unlock()
		return kept.reads
	}
	session := func(prefetch bool) (during int) {
		c := sessionOf(t, srv, kept, newCountingTransport())
		chat := NewChat(ChatConfig{Client: c, Transcript: NewMemoryTranscript(longHistory(6)...), Tools: bulkyTools(30, nil), Now: fixedNow})
		if prefetch {
			chat.Prefetch(context.Background(), "demo-model")
		}
		before := reads()
		if d := doneOf(t, chat, context.Background(), "and then?"); d.Reason != StopDone {
			t.Fatalf("run ended %v: %v", d.Reason, d.Err)
		}
		during = reads() - before
		c.waitCounting()
		return during
	}
	session(false) // an earlier session: the plans and the anchor are kept
	awaitKept(t, kept)
	if n := session(false); n == 0 {
		t.Fatal("a session that prepared nothing read no kept plan on its Enter: the test cannot tell")
	}
	if n := session(true); n != 0 {
		t.Errorf("after Prefetch the first Enter read the kept plans or anchor %d times, want 0", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if !bytes.Equal(reqs[1].Body, reqs[2].Body) {
		t.Errorf("the prepared session sent\n%s\nthe other\n%s", reqs[2].Body, reqs[1].Body)
	}
}
