package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/store"
	"vouch/store/storetest"
)

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// tickClock starts at epoch and moves a second forward per reading.
func tickClock() func() time.Time {
	var mu sync.Mutex
	now := epoch
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

func TestSettings(t *testing.T) {
	db := storetest.MustOpen(t)
	if _, ok, err := db.Setting("theme"); err != nil || ok {
		t.Fatalf("unset: got ok=%v, %v; want false, nil", ok, err)
	}
	for _, tc := range []struct{ name, key, value string }{
		{"set", "theme", "dark"},
		{"replace", "theme", "light"},
		{"empty value", "model", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := db.SetSetting(tc.key, tc.value); err != nil {
				t.Fatal(err)
			}
			got, ok, err := db.Setting(tc.key)
			if err != nil || !ok || got != tc.value {
				t.Errorf("Setting(%q) = %q, %v, %v; want %q, true, nil", tc.key, got, ok, err, tc.value)
			}
		})
	}
	if err := db.SetSetting("", "x"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("empty key: got %v, want ErrInvalid", err)
	}
}

func TestProviders(t *testing.T) {
	db := storetest.MustOpen(t)
	llama := store.Provider{Name: "llama", BaseURL: "http://127.0.0.1:8080/v1", Kind: "llama.cpp", ContextWindow: 8192}
	ollama := store.Provider{Name: "ollama", BaseURL: "http://127.0.0.1:11434/v1", Kind: "ollama", DefaultModel: "qwen3"}
	for _, p := range []store.Provider{ollama, llama} {
		if err := db.PutProvider(p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Providers()
	if err != nil || !slices.Equal(got, []store.Provider{llama, ollama}) {
		t.Errorf("Providers() = %+v, %v; want llama, ollama by name", got, err)
	}
	for _, tc := range []struct {
		name string
		p    store.Provider
		want error
	}{
		{"no name", store.Provider{BaseURL: "http://x"}, store.ErrInvalid},
		{"credentials in URL", store.Provider{Name: "cloud", BaseURL: "https://user:sk-secret@api.example/v1"}, store.ErrInvalid},
		{"token as user", store.Provider{Name: "cloud", BaseURL: "https://sk-secret@api.example/v1"}, store.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := db.PutProvider(tc.p)
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error %q repeats the credential", err)
			}
		})
	}
	if err := db.DeleteProvider("llama"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteProvider("llama"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("delete twice: got %v, want ErrNotFound", err)
	}
	if got, err := db.Providers(); err != nil || !slices.Equal(got, []store.Provider{ollama}) {
		t.Errorf("after delete: Providers() = %+v, %v; want ollama", got, err)
	}
}

// TestConversationsOrder: newest activity first; appending a message moves
// a conversation to the front.
func TestConversationsOrder(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: tickClock()})
	if _, ok, err := db.LatestConversation(); err != nil || ok {
		t.Fatalf("empty: LatestConversation ok=%v, %v; want false, nil", ok, err)
	}
	var convs []store.Conversation
	for _, title := range []string{"first", "second", "third"} {
		c, err := db.CreateConversation(title)
		if err != nil {
			t.Fatal(err)
		}
		convs = append(convs, c)
	}
	titles := func() []string {
		t.Helper()
		list, err := db.Conversations()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range list {
			out = append(out, c.Title)
		}
		return out
	}
	if got, want := titles(), []string{"third", "second", "first"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := db.AppendMessage(store.Message{ConversationID: convs[0].ID, Role: "user", Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got, want := titles(), []string{"first", "third", "second"}; !slices.Equal(got, want) {
		t.Errorf("after a message in first: got %v, want %v", got, want)
	}
	latest, ok, err := db.LatestConversation()
	if err != nil || !ok || latest.ID != convs[0].ID || !latest.Updated.After(latest.Created) {
		t.Errorf("LatestConversation() = %+v, %v, %v; want first, updated after created", latest, ok, err)
	}
	got, err := db.Conversation(convs[1].ID)
	if err != nil || got != convs[1] {
		t.Errorf("Conversation(%s) = %+v, %v; want %+v", convs[1].ID, got, err, convs[1])
	}
	if _, err := db.Conversation("nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Conversation(nope): got %v, want ErrNotFound", err)
	}
}

func TestMessages(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: tickClock()})
	conv, err := db.CreateConversation("chat")
	if err != nil {
		t.Fatal(err)
	}
	calls := json.RawMessage(`[{"id":"c1","type":"function","function":{"name":"x","arguments":"{}"}}]`)
	want := []store.Message{
		{Role: "user", Content: "list files"},
		{Role: "assistant", ToolCalls: calls},
		{Role: "tool", ToolCallID: "c1", Content: "boom", IsError: true},
		{Role: "assistant", Content: "half", Status: store.StatusPartial},
		{Role: "assistant", Content: "done"},
	}
	for i := range want {
		want[i].ConversationID = conv.ID
		seq, err := db.AppendMessage(want[i])
		if err != nil {
			t.Fatal(err)
		}
		if seq != uint64(i+1) {
			t.Errorf("message %d: seq %d, want %d", i, seq, i+1)
		}
		want[i].Seq = seq
		if want[i].Status == "" {
			want[i].Status = store.StatusComplete
		}
	}
	if n, err := db.MessageCount(conv.ID); err != nil || n != len(want) {
		t.Errorf("MessageCount = %d, %v; want %d", n, err, len(want))
	}
	for _, tc := range []struct {
		name      string
		before    uint64
		n         int
		wantFirst uint64 // 0: none expected
		wantLen   int
	}{
		{"last 2", 0, 2, 4, 2},
		{"more than stored", 0, 50, 1, 5},
		{"zero", 0, 0, 0, 0},
		{"before 4, 2", 4, 2, 2, 2},
		{"before 2, 5", 2, 5, 1, 1},
		{"before 1", 1, 5, 0, 0},
		{"before past the end", 99, 2, 4, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []store.Message
			var err error
			if tc.before == 0 {
				got, err = db.LastMessages(conv.ID, tc.n)
			} else {
				got, err = db.MessagesBefore(conv.ID, tc.before, tc.n)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.wantLen {
				t.Fatalf("got %d messages, want %d", len(got), tc.wantLen)
			}
			for i, m := range got {
				w := want[int(tc.wantFirst)-1+i]
				if m.Created.IsZero() {
					t.Errorf("seq %d: Created is zero", m.Seq)
				}
				m.Created = time.Time{}
				if fmt.Sprint(m) != fmt.Sprint(w) {
					t.Errorf("got %+v, want %+v", m, w)
				}
			}
		})
	}

	edited := want[3]
	edited.Content, edited.Status = "half, then whole", store.StatusComplete
	if err := db.UpdateMessage(edited); err != nil {
		t.Fatal(err)
	}
	got, err := db.MessagesBefore(conv.ID, 5, 1)
	if err != nil || len(got) != 1 || got[0].Content != edited.Content || got[0].Status != store.StatusComplete {
		t.Errorf("after UpdateMessage: got %+v, %v; want %q complete", got, err, edited.Content)
	}
}

func TestMessageErrors(t *testing.T) {
	db := storetest.MustOpen(t)
	conv, err := db.CreateConversation("chat")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		op   func() error
		want error
	}{
		{"append to missing conversation", func() error {
			_, err := db.AppendMessage(store.Message{ConversationID: "nope", Role: "user"})
			return err
		}, store.ErrNotFound},
		{"append without role", func() error {
			_, err := db.AppendMessage(store.Message{ConversationID: conv.ID})
			return err
		}, store.ErrInvalid},
		{"append with unknown status", func() error {
			_, err := db.AppendMessage(store.Message{ConversationID: conv.ID, Role: "user", Status: "done"})
			return err
		}, store.ErrInvalid},
		{"append with invalid tool calls", func() error {
			_, err := db.AppendMessage(store.Message{ConversationID: conv.ID, Role: "assistant", ToolCalls: json.RawMessage(`[{`)})
			return err
		}, store.ErrInvalid},
		{"update missing message", func() error {
			return db.UpdateMessage(store.Message{ConversationID: conv.ID, Seq: 42, Role: "user", Status: store.StatusComplete})
		}, store.ErrNotFound},
		{"last of missing conversation", func() error {
			_, err := db.LastMessages("nope", 10)
			return err
		}, store.ErrNotFound},
		{"count of missing conversation", func() error {
			_, err := db.MessageCount("nope")
			return err
		}, store.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.op(); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	if n, err := db.MessageCount(conv.ID); err != nil || n != 0 {
		t.Errorf("after rejected writes: MessageCount = %d, %v; want 0", n, err)
	}
}
