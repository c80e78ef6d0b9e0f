package main

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"vouch/internal/termtest"
)

// BenchmarkAttachFirstFrame (SPEC K4, L3; issue 15 "Speed and memory"):
// the time from exec of `vouch` to the first frame when it attaches to a
// running session whose conversation holds 10,000 messages, against
// today's in-process first frame with 100,000 stored messages (the binary
// of VOUCH_BASE_BIN, built from the tree before the session; skipped
// without it), with the print-and-exit Go program as the baseline, in the
// same run. Also the session process's RSS, idle, after the attaches
// (goal: under 30 MB).
func BenchmarkAttachFirstFrame(b *testing.B) {
	bin := buildVouch(b)
	hello := buildHello(b)
	closed := "http://127.0.0.1:9/v1"
	b.Run("attach-10k-messages", func(b *testing.B) {
		state := shortState(b)
		seedMessages(b, state, 10_000)
		// The session's first program starts with the first attach; later
		// ones find it running, as a reattach after a hang-up does.
		first, _ := timeToText(b, exec.Command(bin, "--state-dir", state, "--model-url", closed), firstFrameMarker)
		pid := sessionPID(b, state)
		if pid == 0 {
			b.Fatal("no session after the first attach")
		}
		defer func() { _ = syscall.Kill(pid, syscall.SIGKILL) }()
		var vouchTotal, helloTotal time.Duration
		b.ResetTimer()
		for range b.N {
			h, _ := timeToText(b, exec.Command(hello), "hello from baseline")
			v, _ := timeToText(b, exec.Command(bin, "--state-dir", state, "--model-url", closed), firstFrameMarker)
			helloTotal += h
			vouchTotal += v
		}
		b.StopTimer()
		rss, err := termtest.RSS(pid)
		if err != nil {
			b.Fatal(err)
		}
		n := float64(b.N)
		b.ReportMetric(float64(first.Microseconds())/1000, "first-attach-ms")
		b.ReportMetric(float64(vouchTotal.Microseconds())/1000/n, "vouch-ms")
		b.ReportMetric(float64(helloTotal.Microseconds())/1000/n, "baseline-ms")
		b.ReportMetric(float64(vouchTotal)/float64(helloTotal), "ratio")
		b.ReportMetric(float64(rss)/(1<<20), "session-rss-MiB")
	})
	b.Run("inprocess-100k-messages", func(b *testing.B) {
		base := os.Getenv("VOUCH_BASE_BIN")
		if base == "" {
			b.Skip("set VOUCH_BASE_BIN to a vouch built from the tree before the session (docs/BENCHMARKS.md)")
		}
		state := b.TempDir()
		seedMessages(b, state, 100_000)
		var vouchTotal, helloTotal time.Duration
		b.ResetTimer()
		for range b.N {
			h, _ := timeToText(b, exec.Command(hello), "hello from baseline")
			v, _ := timeToText(b, exec.Command(base, "--state-dir", state, "--model-url", closed), firstFrameMarker)
			helloTotal += h
			vouchTotal += v
		}
		n := float64(b.N)
		b.ReportMetric(float64(vouchTotal.Microseconds())/1000/n, "vouch-ms")
		b.ReportMetric(float64(helloTotal.Microseconds())/1000/n, "baseline-ms")
		b.ReportMetric(float64(vouchTotal)/float64(helloTotal), "ratio")
	})
}
