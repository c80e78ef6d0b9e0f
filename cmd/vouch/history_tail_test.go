package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/termtest"
	"vouch/store"
)

// TestContinueLongConversationExtendsA6 is SPEC A6 through the product's
// own wiring (issue 17 follow-up): a stored conversation of 1,200
// messages, continued twice with `vouch run --continue`, each run a fresh
// open of the state database. The second request begins with every
// message of the first, unchanged, so a server's prompt cache evaluates
// only what was added; the first begins with the conversation's first
// message, since the whole of it fits the 65,536-token window. Reading the
// last 500 messages, each run began two messages later than the one
// before and nothing of the cached prompt could be kept.
func TestContinueLongConversationExtendsA6(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(65536))
	defer model.Close()
	state := t.TempDir()
	seedMessages(t, state, 1200)
	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 || rows[0].Messages != 1200 {
		t.Fatalf("conversations --json: %v, %s; want the one seeded conversation of 1,200 messages", err, js)
	}
	flags := []string{"--model-url", model.URL(), "--model", "m", "run", "--continue", rows[0].ID}
	cli(t, state, "", exitOK, append(flags, "what was the first thing I said?")...)
	cli(t, state, "", exitOK, append(flags, "and the second?")...)

	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests, want 2", len(reqs))
	}
	first := reqs[0].Messages
	if len(first) < 1200 || !strings.HasPrefix(first[1].Content, "message 0: ") {
		t.Fatalf("the first request carries %d messages, beginning %q after the system prompt; want the whole conversation from its first message",
			len(first), first[min(1, len(first)-1)].Content)
	}
	assertRequestsExtend(t, reqs)
}

// BenchmarkOpenLongConversation (SPEC L3, A3; issue 17 follow-up): from
// exec of `vouch` to the newest of 100,000 stored messages on screen — the
// history is read after the first frame: the last 500 messages, never the
// larger tail a run reads — against the binary of VOUCH_BASE_BIN (built
// from the tree before the change; without it only this tree is
// measured), alternating, in the same run. Each open gets a copy of the
// seeded state directory, so it starts a session that reads the
// conversation itself rather than attaching to the one before; the
// session's RSS is read once the message is on screen.
//
//	VOUCH_BASE_BIN=/path/to/old/vouch go test -run '^$' -bench BenchmarkOpenLongConversation -benchtime 10x ./cmd/vouch
func BenchmarkOpenLongConversation(b *testing.B) {
	bin := buildVouch(b)
	base := os.Getenv("VOUCH_BASE_BIN")
	seeded := b.TempDir()
	seedMessages(b, seeded, 100_000)
	db, err := os.ReadFile(filepath.Join(seeded, store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	open := func(exe string) (time.Duration, int64) {
		b.StopTimer()
		state := shortState(b)
		if err := os.WriteFile(filepath.Join(state, store.FileName), db, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		d, _ := timeToText(b, exec.Command(exe, "--state-dir", state, "--model-url", "http://127.0.0.1:9/v1"), "message 99999")
		b.StopTimer()
		var rss int64
		if pid := sessionPID(b, state); pid > 0 {
			if rss, err = termtest.RSS(pid); err != nil {
				b.Fatal(err)
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		b.StartTimer()
		return d, rss
	}
	var now, before time.Duration
	var rssNow, rssBefore int64
	b.ResetTimer()
	for range b.N {
		d, r := open(bin)
		now += d
		rssNow = max(rssNow, r)
		if base != "" {
			d, r := open(base)
			before += d
			rssBefore = max(rssBefore, r)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(now.Microseconds())/1000/n, "now-ms")
	b.ReportMetric(float64(rssNow)/(1<<20), "now-session-rss-MiB")
	if base != "" {
		b.ReportMetric(float64(before.Microseconds())/1000/n, "before-ms")
		b.ReportMetric(float64(rssBefore)/(1<<20), "before-session-rss-MiB")
		b.ReportMetric(float64(now)/float64(before), "ratio")
	}
}
