package app

import (
	"testing"

	"vouch/store"
)

// TestInterfaceOpensTheLastChat (SPEC L5, M; issue 28 item 17): after
// headless runs added conversations of their own, the interface opens the
// last conversation the person chatted in, and the list marks the runs'.
func TestInterfaceOpensTheLastChat(t *testing.T) {
	state := t.TempDir()
	a := openTestApp(t, state)
	chatted, _ := a.Current()
	say := func(a *App, conv string) {
		if err := a.db.AppendMessages([]store.Message{{ConversationID: conv, Role: "user", Content: "hello"}}); err != nil {
			t.Fatal(err)
		}
	}
	say(a, chatted)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		b := openTestApp(t, state)
		if _, err := b.HeadlessChat("", "", "", ""); err != nil {
			t.Fatal(err)
		}
		run, _ := b.Current()
		if run == chatted {
			t.Fatal("a headless run continued the person's chat")
		}
		say(b, run)
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
	c := openTestApp(t, state)
	defer func() { _ = c.Close() }()
	if cur, _ := c.Current(); cur != chatted {
		t.Errorf("the interface opened %s, want the chat %s", cur, chatted)
	}
	list, err := c.Conversations(0)
	if err != nil || len(list) != 3 {
		t.Fatalf("list %+v, %v", list, err)
	}
	for _, v := range list {
		if v.Headless == (v.ID == chatted) {
			t.Errorf("%s marked headless=%v", v.ID, v.Headless)
		}
	}
}
