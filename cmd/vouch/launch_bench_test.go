package main

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/benchtab"
	"vouch/internal/termtest"
)

// BenchmarkLaunchAgainstAttach (SPEC K4, L3; issue 29 item 1) measures,
// in each iteration on a new state dir: launch → first frame (`vouch`
// with no session running, so it starts one), then attach → first frame
// (`vouch` again, finding the session), each on an 80x24 pseudo-terminal,
// and the RSS of both clients at their first frame; then, the session
// stopped (SIGTERM, as at logout) and gone, relaunch → first frame on the
// state dir it left — the launch of every day after the first, which
// opens a database instead of making one. Once, at the end: the
// whole tree's RSS (an attached client and the session) after 5 s idle —
// the figure the target names. Goals: launch within 1.3x of
// attach, the relay client at most 10 MB, the tree at most 32 MB.
// BenchmarkOneShot is the headless one-shot.
//
//	go test -run '^$' -bench 'BenchmarkLaunchAgainstAttach|BenchmarkOneShot' -benchtime 10x ./cmd/vouch
func BenchmarkLaunchAgainstAttach(b *testing.B) {
	bin := buildVouch(b)
	closed := "http://127.0.0.1:9/v1"
	var launch, attach time.Duration
	var launches, attaches, relaunches []time.Duration
	var launchRSS, attachRSS int64
	b.ResetTimer()
	for range b.N {
		state := shortState(b)
		l, lr := timeToText(b, exec.Command(bin, "--state-dir", state, "--model-url", closed), firstFrameMarker)
		pid := sessionPID(b, state)
		if pid == 0 {
			b.Fatal("no session after the launch")
		}
		a, ar := timeToText(b, exec.Command(bin, "--state-dir", state, "--model-url", closed), firstFrameMarker)
		stopAndWait(b, pid)
		r, _ := timeToText(b, exec.Command(bin, "--state-dir", state, "--model-url", closed), firstFrameMarker)
		relaunches = append(relaunches, r)
		if pid := sessionPID(b, state); pid != 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		launch, attach = launch+l, attach+a
		launches, attaches = append(launches, l), append(attaches, a)
		launchRSS, attachRSS = max(launchRSS, lr), max(attachRSS, ar)
	}
	b.StopTimer()
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	b.ReportMetric(ms(launch), "launch-ms")
	b.ReportMetric(ms(attach), "attach-ms")
	b.ReportMetric(float64(launch)/float64(attach), "launch-x-of-attach")
	// Medians too: on a shared machine one launch in ten can take ten
	// times the others, and a mean follows it.
	lm, am := benchtab.Median(launches), benchtab.Median(attaches)
	b.ReportMetric(float64(lm.Microseconds())/1000, "launch-median-ms")
	b.ReportMetric(float64(am.Microseconds())/1000, "attach-median-ms")
	b.ReportMetric(float64(lm)/float64(am), "median-launch-x-of-attach")
	rm := benchtab.Median(relaunches)
	b.ReportMetric(float64(rm.Microseconds())/1000, "relaunch-median-ms")
	b.ReportMetric(float64(rm)/float64(am), "median-relaunch-x-of-attach")
	b.ReportMetric(float64(launchRSS)/(1<<20), "launch-client-rss-MiB")
	b.ReportMetric(float64(attachRSS)/(1<<20), "attach-client-rss-MiB")
	idle := idleTree(b, bin, closed)
	b.ReportMetric(float64(idle.client)/(1<<20), "idle-client-rss-MiB")
	b.ReportMetric(float64(idle.session)/(1<<20), "idle-session-rss-MiB")
	b.ReportMetric(float64(idle.client+idle.session)/(1<<20), "idle-tree-rss-MiB")
	b.ReportMetric(float64(idle.pss)/(1<<20), "idle-tree-pss-MiB")
}

// BenchmarkOneShot (SPEC L3; issue 29 item 1) is the headless one-shot:
// exec of `vouch run TASK` to its exit, against a loopback llama.cpp fake,
// on one state dir (goal: at most 0.05 s).
func BenchmarkOneShot(b *testing.B) {
	bin := buildVouch(b)
	model := helloModel(b)
	state := shortState(b)
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if out, err := exec.Command(bin, "--state-dir", state, "--model-url", model.URL(), "--model", "m", "run", "say hello").CombinedOutput(); err != nil {
			b.Fatalf("vouch run: %v\n%s", err, out)
		}
		took = append(took, time.Since(start))
	}
	b.ReportMetric(float64(benchtab.Median(took).Microseconds())/1000, "median-ms")
}

// helloModel is a loopback llama.cpp fake of model "m" that answers every
// turn "Hello there.", closed when tb ends.
func helloModel(tb testing.TB) *agenttest.Server {
	m := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Hello there.")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(16384))
	tb.Cleanup(m.Close)
	return m
}

// treeMemory is an attached client's and its session's memory.
type treeMemory struct {
	client, session int64 // RSS of each
	pss             int64 // the two's PSS: the pages of the binary both map counted once
}

// idleTree launches vouch on a new state dir, leaves it attached and idle
// for 5 s, and returns the client's and the session's memory.
func idleTree(b *testing.B, bin, modelURL string) treeMemory {
	b.Helper()
	state := shortState(b)
	stopSessionAtEnd(b, state)
	term, err := termtest.Start(exec.Command(bin, "--state-dir", state, "--model-url", modelURL), 80, 24)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = term.Close() }()
	if err := term.WaitFor(firstFrameMarker, e2eTimeout); err != nil {
		b.Fatalf("%v; output so far: %q", err, term.Output())
	}
	time.Sleep(5 * time.Second) // the measurement is of a tree idle for 5 s, not a synchronisation
	pid := sessionPID(b, state)
	if pid == 0 {
		b.Fatal("no session")
	}
	var m treeMemory
	for _, p := range []struct {
		pid      int
		rss, pss *int64
	}{{term.Pid(), &m.client, &m.pss}, {pid, &m.session, &m.pss}} {
		rss, err := termtest.RSS(p.pid)
		if err != nil {
			b.Fatal(err)
		}
		pss, err := termtest.PSS(p.pid)
		if err != nil {
			b.Fatal(err)
		}
		*p.rss, *p.pss = rss, *p.pss+pss
	}
	return m
}
