package app

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/store"
)

// seedConversation stores n alternating messages of the person and the
// model in conversation convID, each text made by text(i), in one
// transaction, as an import would.
func seedConversation(t *testing.T, db *store.DB, convID string, n int, text func(i int) string) {
	t.Helper()
	ms := make([]store.Message, n)
	for i := range ms {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		ms[i] = store.Message{ConversationID: convID, Role: role, Content: text(i)}
	}
	if err := db.AppendMessages(ms); err != nil {
		t.Fatal(err)
	}
}

// sendTurns sends n messages through chat, one run at a time, and fails on
// a run that does not end cleanly.
func sendTurns(t *testing.T, chat *Chat, n int) {
	t.Helper()
	for i := range n {
		ch, err := chat.Send(context.Background(), "m", fmt.Sprintf("turn %d: what next?", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, done := drain(t, ch); done.Err != nil || done.Reason != agent.StopDone {
			t.Fatalf("turn %d: %s %v", i, done.Reason, done.Err)
		}
	}
}

// assertExtends fails unless every request's messages begin with all of
// the previous request's, unchanged (SPEC A6: a server's prompt cache then
// evaluates only what was added).
func assertExtends(t *testing.T, reqs []agenttest.Request) {
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

// firstHistory is the first message of a request after the system prompt.
func firstHistory(t *testing.T, r agenttest.Request) string {
	t.Helper()
	for _, m := range r.Messages {
		if m.Role != "system" {
			return m.Content
		}
	}
	t.Fatal("a request without history")
	return ""
}

// TestLongConversationRequestsExtend is SPEC A6 (issue 17 follow-up): a
// stored conversation of 1,200 messages that fits the model's window is
// sent whole, and each of 12 consecutive requests is a byte-for-byte
// extension of the one before. Reading only the last 500 messages, every
// request began two messages later than the one before and the server
// re-evaluated the whole prompt every turn.
func TestLongConversationRequestsExtend(t *testing.T) {
	srv := notedModel(t, 131072)
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	convID, tr := s.Current()
	seedConversation(t, s.DB(), convID, 1200, func(i int) string {
		return fmt.Sprintf("message %d: some words of a conversation that went on for a long while", i)
	})
	chat := NewChat(ChatConfig{DB: s.DB(), Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
	sendTurns(t, chat, 12)
	reqs := srv.Requests()
	if len(reqs) != 12 {
		t.Fatalf("%d requests, want 12", len(reqs))
	}
	for k, r := range reqs {
		if got := firstHistory(t, r); got != "message 0: some words of a conversation that went on for a long while" {
			t.Fatalf("request %d begins with %q, want the conversation's first message", k, got)
		}
	}
	assertExtends(t, reqs)
}

// TestShortMessagesFillWindow is SPEC A3 (issue 17 follow-up): a
// conversation of 4,000 short messages (about 12 tokens each with their
// overhead) is more than a 32,768-token window holds, so the agent trims
// it, and a new cut keeps half the room (agent/history_fit.go): about
// 1,300 messages, where before the conversation read only its last 500,
// a fifth of the window, and the model lost context it had room for.
func TestShortMessagesFillWindow(t *testing.T) {
	srv := notedModel(t, 32768)
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	convID, tr := s.Current()
	seedConversation(t, s.DB(), convID, 4000, func(i int) string { return fmt.Sprintf("ok %d", i) })
	chat := NewChat(ChatConfig{DB: s.DB(), Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
	sendTurns(t, chat, 1)
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if n := len(reqs[0].Messages); n < 1000 {
		t.Fatalf("the request carries %d messages of a 4,000-message conversation; half of a 32k window holds about 1,300 of them", n)
	}
}

// TestTailStepKeepsFirstMessage is SPEC A6 (issue 17 follow-up) for a
// conversation longer than what a run reads: the tail's first message is
// aligned to a step, so ten turns in a row begin with the same message and
// extend each other. Without the step (Step 1, the tail of a fixed count)
// the first message moves every turn; the test checks that it can tell.
func TestTailStepKeepsFirstMessage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		step    uint64
		extends bool
	}{{"aligned", 100, true}, {"unaligned", 1, false}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := notedModel(t, 131072)
			s := openTestSession(t, t.TempDir())
			defer func() { _ = s.Close() }()
			convID, _ := s.Current()
			seedConversation(t, s.DB(), convID, 1200, func(i int) string { return fmt.Sprintf("message %d", i) })
			tr := &storeTranscript{db: s.DB(), convID: convID, tail: tailCache{opts: store.TailOptions{Max: 300, Step: tc.step}}}
			chat := NewChat(ChatConfig{DB: s.DB(), Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
			sendTurns(t, chat, 10)
			reqs := srv.Requests()
			firsts := map[string]bool{}
			for _, r := range reqs {
				firsts[firstHistory(t, r)] = true
			}
			if !tc.extends {
				if len(firsts) == 1 {
					t.Fatalf("without a step every request began with the same message %v", firsts)
				}
				return
			}
			// 300 back from the newest (messages 1,201 to 1,221) is 902 to
			// 922; aligned to 100 that is always the 901st, "message 900".
			if len(firsts) != 1 || !firsts["message 900"] {
				t.Fatalf("the requests begin with %v, want each with the 901st message", firsts)
			}
			assertExtends(t, reqs)
		})
	}
}

// TestTailCacheMatchesStore: a transcript that keeps its tail between
// reads returns exactly what a fresh read of the store does, after
// appends, a message still streaming (read again until it is final) and a
// batch larger than a tail (read afresh).
func TestTailCacheMatchesStore(t *testing.T) {
	db := openTestSession(t, t.TempDir())
	defer func() { _ = db.Close() }()
	convID, _ := db.Current()
	opts := store.TailOptions{Bytes: 3000, PerMessage: 10, Max: 40, Step: 7}
	kept := &storeTranscript{db: db.DB(), convID: convID, tail: tailCache{opts: opts}}
	check := func(when string) {
		t.Helper()
		got, err := kept.Messages(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		fresh := &storeTranscript{db: db.DB(), convID: convID, tail: tailCache{opts: opts}}
		want, err := fresh.Messages(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the kept tail has %d messages, a fresh read %d; they differ", when, len(got), len(want))
		}
	}
	check("empty")
	seedConversation(t, db.DB(), convID, 50, func(i int) string { return fmt.Sprintf("%d %0*d", i, i*37%300, 0) })
	check("seeded")
	for i := range 120 {
		m := store.Message{ConversationID: convID, Role: "user", Content: fmt.Sprintf("%d %0*d", i, i*53%400, 0)}
		if i%10 != 9 {
			if _, err := db.DB().AppendMessage(m); err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("append %d", i))
			continue
		}
		m.Role, m.Status, m.Content = "assistant", store.StatusStreaming, "first words"
		seq, err := db.DB().AppendMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		m.Seq = seq
		check(fmt.Sprintf("streaming %d", i))
		m.Content += " and many more words of a long answer"
		if err := db.DB().UpdateMessage(m); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("streaming on %d", i))
		m.Status, m.Content = store.StatusComplete, "the final answer"
		if err := db.DB().UpdateMessage(m); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("finished %d", i))
	}
	seedConversation(t, db.DB(), convID, 100, func(i int) string { return fmt.Sprintf("batch %d", i) })
	check("a batch of more than a tail")
}

// TestShownHistoryBounded (SPEC L3): what the interface shows on opening
// a conversation stays its last 500 messages, read with a cursor from the
// end, while a run reads the larger tail.
func TestShownHistoryBounded(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	convID, tr := s.Current()
	seedConversation(t, s.DB(), convID, 1200, func(i int) string { return fmt.Sprintf("message %d", i) })
	chat := NewChat(ChatConfig{DB: s.DB(), Transcript: tr, ModelURL: "http://127.0.0.1:9/v1", Model: "m"})
	shown, err := chat.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) != 500 || shown[0].Content != "message 700" || shown[499].Content != "message 1199" {
		t.Fatalf("shown %d messages; want the last 500, message 700 to 1199", len(shown))
	}
	all, err := tr.Messages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1200 {
		t.Fatalf("a run reads %d messages, want all 1,200", len(all))
	}
}

// TestTrimmedLongConversationExtends is SPEC A6 (issue 17 follow-up) when
// the conversation is longer than the window: 4,000 short messages over a
// 32,768-token window. The agent cuts where half the room is left and
// starts there again while what follows fits; the tail a run reads must
// hold that cut turn after turn, so ten requests extend each other. With
// the last 500 messages read, everything read fitted, was sent whole and
// began one turn later each time.
func TestTrimmedLongConversationExtends(t *testing.T) {
	srv := notedModel(t, 32768)
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	convID, tr := s.Current()
	seedConversation(t, s.DB(), convID, 4000, func(i int) string { return fmt.Sprintf("ok %d", i) })
	chat := NewChat(ChatConfig{DB: s.DB(), Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
	sendTurns(t, chat, 10)
	reqs := srv.Requests()
	if len(reqs) != 10 {
		t.Fatalf("%d requests, want 10", len(reqs))
	}
	if n := len(reqs[0].Messages); n >= 4000 {
		t.Fatalf("the first request carries %d messages: the conversation was not trimmed, the test tests nothing", n)
	}
	assertExtends(t, reqs)
}

// TestTailBeginsWithPersonsMessage: where the aligned start falls inside
// an exchange (on the model's tool call, its result or its answer), what
// a run reads begins with the next message of the person, so no request
// opens with the model's turn; with a start on the person's message
// nothing is left out.
func TestTailBeginsWithPersonsMessage(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	convID, _ := s.Current()
	roles := []string{"user", "assistant", "tool", "assistant"} // an exchange with one tool call
	ms := make([]store.Message, 40)
	for i := range ms {
		ms[i] = store.Message{ConversationID: convID, Role: roles[i%4], Content: fmt.Sprintf("m%d", i+1)}
		switch roles[i%4] {
		case "assistant":
			if i%4 == 1 {
				ms[i].ToolCalls = []byte(fmt.Sprintf(`[{"id":"c%d","correlation_id":"k%d","wire_name":"read","arguments":"{}"}]`, i, i))
			}
		case "tool":
			ms[i].ToolCallID = fmt.Sprintf("k%d", i-1)
		}
	}
	if err := s.DB().AppendMessages(ms); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		max   int
		first string
	}{
		{12, "m29"}, // 12 back from 40 is seq 29, a message of the person
		{10, "m33"}, // seq 31 is the tool result, 32 the answer: from 33
		{9, "m33"},  // seq 32, the answer
		{11, "m33"}, // seq 30, the tool call
	} {
		tr := &storeTranscript{db: s.DB(), convID: convID, tail: tailCache{opts: store.TailOptions{Max: tc.max}}}
		msgs, err := tr.Messages(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if msgs[0].Content != tc.first || msgs[0].Role != agent.RoleUser || msgs[len(msgs)-1].Content != "m40" {
			t.Errorf("max %d: read %q (%s) to %q, want from %q, a message of the person, to m40",
				tc.max, msgs[0].Content, msgs[0].Role, msgs[len(msgs)-1].Content, tc.first)
		}
	}
}
