package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
)

// plainTranscript hides a transcript's MessagesFor: a run then reads the
// window-less tail.
type plainTranscript struct{ agent.Transcript }

// TestWindowedTailSendsWhatTheWholeWould (SPEC A3, A6; issue 17 Speed): a
// run reads only the tail its model's window can carry (historyTailFor) —
// a fraction of the conversation — and sends, turn after turn, exactly
// the requests it sends when it reads the whole tail, in a conversation
// of English, Chinese and digits.
func TestWindowedTailSendsWhatTheWholeWould(t *testing.T) {
	const window = 8192
	text := func(i int) string {
		switch i % 3 {
		case 0:
			return fmt.Sprintf("message %d: the build and its tests, once more", i)
		case 1:
			return fmt.Sprintf("第%d条消息：构建和测试又通过了", i)
		}
		return strings.Repeat(fmt.Sprint(i), 6)
	}
	type side struct {
		srv  *agenttest.Server
		tr   agent.Transcript
		chat *Chat
	}
	open := func(windowed bool) side {
		srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
			agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(window))
		t.Cleanup(srv.Close)
		s := openTestSession(t, t.TempDir())
		t.Cleanup(func() { _ = s.Close() })
		convID, tr := s.Current()
		seedConversation(t, s.DB(), convID, 12_000, text)
		var use agent.Transcript = tr
		if !windowed {
			use = plainTranscript{tr}
		}
		return side{srv: srv, tr: tr, chat: NewChat(ChatConfig{DB: s.DB(), Transcript: use, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})}
	}
	windowed, whole := open(true), open(false)
	sendTurns(t, windowed.chat, 4)
	sendTurns(t, whole.chat, 4)
	a, b := windowed.srv.Requests(), whole.srv.Requests()
	if len(a) != 4 || len(b) != 4 {
		t.Fatalf("%d and %d requests, want 4 each", len(a), len(b))
	}
	for k := range a {
		if !bytes.Equal(a[k].Body, b[k].Body) {
			t.Errorf("request %d differs: %d messages from the window's tail, %d from the whole", k, len(a[k].Messages), len(b[k].Messages))
		}
	}
	assertExtends(t, a[1:]) // the first carries no cut yet; after it, each extends the one before

	wt, ok := windowed.tr.(agent.WindowedTranscript)
	if !ok {
		t.Fatal("the stored transcript does not read by window")
	}
	part, err := wt.MessagesFor(context.Background(), window)
	if err != nil {
		t.Fatal(err)
	}
	all, err := whole.tr.Messages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(part)*3 > len(all) {
		t.Errorf("an %d-token window read %d messages, the whole tail %d: want a fraction", window, len(part), len(all))
	}
}
