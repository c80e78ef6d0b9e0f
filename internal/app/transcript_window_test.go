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
		srv := notedModel(t, window)
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
	part, older, err := wt.MessagesFor(context.Background(), window)
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
	if older+len(part) != len(all) {
		t.Errorf("read %d messages and counted %d earlier ones not read, of %d", len(part), older, len(all))
	}
}

// TestLeftOutCountsUnreadMessages (SPEC A3, L1; issue 17): when a run read
// only the tail of a long conversation, the usage's LeftOut — the status
// line's "(-N earlier)" — counts every earlier message the request does not
// carry, those never read included, not only the tail's.
func TestLeftOutCountsUnreadMessages(t *testing.T) {
	srv := notedModel(t, 4096)
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	convID, tr := s.Current()
	seedConversation(t, s.DB(), convID, 10_000, func(i int) string { return fmt.Sprintf("message %d of a long talk", i) })
	chat := NewChat(ChatConfig{DB: s.DB(), Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
	ch, err := chat.Send(context.Background(), "m", "and now?")
	if err != nil {
		t.Fatal(err)
	}
	var u *agent.Usage
	var done agent.Done
	for ev := range ch {
		switch ev := ev.(type) {
		case agent.Usage:
			u = &ev
		case agent.Done:
			done = ev
		}
	}
	if done.Reason != agent.StopDone {
		t.Fatalf("%s %v", done.Reason, done.Err)
	}
	if u == nil {
		t.Fatal("no usage")
	}
	sent := 0
	for _, m := range srv.Requests()[0].Messages {
		if m.Role != "system" {
			sent++
		}
	}
	if want := 10_001 - sent; u.LeftOut != want {
		t.Errorf("LeftOut %d, want %d: 10,001 messages, %d of them sent", u.LeftOut, want, sent)
	}
}
