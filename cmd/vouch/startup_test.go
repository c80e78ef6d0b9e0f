package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"vouch/internal/termtest"
	"vouch/store"
)

// firstFrameMarker is text of the chat screen's first frame.
const firstFrameMarker = "sk anything"

// seedMessages fills a state dir with one conversation of n messages.
func seedMessages(tb testing.TB, stateDir string, n int) {
	tb.Helper()
	db, err := store.Open(filepath.Join(stateDir, store.FileName), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	conv, err := db.CreateConversation("seeded")
	if err != nil {
		tb.Fatal(err)
	}
	batch := make([]store.Message, 0, 1000)
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		batch = append(batch, store.Message{ConversationID: conv.ID, Role: role, Content: fmt.Sprintf("message %d: some words of a conversation that went on for a long while", i), Status: store.StatusComplete})
		if len(batch) == cap(batch) || i == n-1 {
			if err := db.AppendMessages(batch); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// timeToText starts cmd on an 80x24 pseudo-terminal and returns how long the
// first output containing marker took, and the process's RSS at that moment.
func timeToText(tb testing.TB, cmd *exec.Cmd, marker string) (time.Duration, int64) {
	tb.Helper()
	start := time.Now()
	term, err := termtest.Start(cmd, 80, 24)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = term.Close() }()
	if err := term.WaitFor(marker, e2eTimeout); err != nil {
		tb.Fatalf("%v; output so far: %q", err, term.Output())
	}
	took := time.Since(start)
	rss, err := termtest.RSS(term.Pid())
	if err != nil {
		rss = 0 // the baseline may have exited already
	}
	return took, rss
}

// buildHello builds the baseline: a Go program that only prints and exits.
func buildHello(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello from baseline\") }\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	bin := filepath.Join(dir, "hello")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		tb.Fatalf("build baseline: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkFirstFrame measures the time from exec to vouch's first frame on
// a pseudo-terminal, with an empty state dir and with 100,000 stored
// messages, against a Go program that only prints and exits, in the same
// run. Reported: ms to first frame, the baseline's ms, their ratio, and RSS.
func BenchmarkFirstFrame(b *testing.B) {
	bin := buildVouch(b)
	hello := buildHello(b)
	for _, tc := range []struct {
		name     string
		messages int
	}{{"empty", 0}, {"100k-messages", 100_000}} {
		b.Run(tc.name, func(b *testing.B) {
			state := b.TempDir()
			// The first iteration starts the session, the others attach
			// to it (BenchmarkAttachFirstFrame, session_bench_test.go).
			stopSessionAtEnd(b, state)
			if tc.messages > 0 {
				seedMessages(b, state, tc.messages)
			}
			var vouchTotal, helloTotal time.Duration
			var rss int64
			b.ResetTimer()
			for range b.N {
				h, _ := timeToText(b, exec.Command(hello), "hello from baseline")
				v, r := timeToText(b, exec.Command(bin, "--state-dir", state, "--model-url", "http://127.0.0.1:9/v1"), firstFrameMarker)
				helloTotal += h
				vouchTotal += v
				rss = max(rss, r)
			}
			n := float64(b.N)
			b.ReportMetric(float64(vouchTotal.Microseconds())/1000/n, "vouch-ms")
			b.ReportMetric(float64(helloTotal.Microseconds())/1000/n, "baseline-ms")
			b.ReportMetric(float64(vouchTotal)/float64(helloTotal), "ratio")
			b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
		})
	}
}
