package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/store"
)

// addDeadServers adds n black holes to state's servers, active as servers
// that died since they were activated would be (activation itself would
// fail against them).
func addDeadServers(tb testing.TB, state string, n int) {
	tb.Helper()
	var names []string
	for i := range n {
		hole, err := mcptest.NewBlackHole()
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { _ = hole.Close() })
		name := fmt.Sprintf("hole%d", i)
		cliIn(tb, state, "", exitOK, "server", "add", name, "--url", hole.URL)
		names = append(names, name)
	}
	db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, name := range names {
		rec, err := db.MCPServerByName(name)
		if err == nil {
			rec.Active = true
			err = db.PutMCPServer(rec)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestRunDoesNotWaitOnDeadServers (SPEC B5; issue 24 items 2, 6): with a
// live server, a slow but healthy one (its catalog cached, its initialize
// now 3 s late) and five black holes, `vouch run`, `vouch server list` and
// `vouch doctor` each take one warm-up bound, not 5 s per batch of four;
// the run names each black hole on stderr and why its tools are not
// offered, and the live server's tool runs; the slow server is "slow", its
// cached tools offered.
func TestRunDoesNotWaitOnDeadServers(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	live := mcptest.Start(t, mcptest.Options{})
	slow := mcptest.Start(t, mcptest.Options{Tools: []string{"evaluate"}})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "live", "--url", live.URL)
	cli(t, state, "", exitOK, "server", "activate", "live")
	cli(t, state, "", exitOK, "server", "add", "slow", "--url", slow.URL)
	cli(t, state, "", exitOK, "server", "activate", "slow")
	addDeadServers(t, state, 5)
	slow.SetInitDelay(3 * time.Second)
	var rows []app.ToolRow
	raw, _ := cli(t, state, "", exitOK, "tools", "--json")
	if err := json.Unmarshal([]byte(raw), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		switch {
		case strings.HasSuffix(r.Identity, ":lookup"):
			cli(t, state, "", exitOK, "policy", "set", r.Identity, "allow")
		case strings.HasSuffix(r.Identity, ":evaluate"):
			if r.Status != "slow" || !r.Executable {
				t.Errorf("the slow server's tool in vouch tools: %+v, want slow and offered", r)
			}
		}
	}
	timed := func(want int, args ...string) (string, string) {
		t.Helper()
		start := time.Now()
		out, errOut := cli(t, state, "", want, args...)
		if d := time.Since(start); d > mcpclient.WarmBound+2*time.Second {
			t.Errorf("vouch %s took %s beside five dead servers; want about %s", strings.Join(args, " "), d, mcpclient.WarmBound)
		}
		return out, errOut
	}
	out, errOut := timed(exitOK, "--model-url", model.URL(), "--model", "m", "run", "look it up")
	if !strings.Contains(out, "The lookup answered.") || live.Calls("lookup") != 1 {
		t.Errorf("the run: stdout %q, %d calls; want the live server's tool run", out, live.Calls("lookup"))
	}
	for i := range 5 {
		want := fmt.Sprintf("vouch: MCP server \"hole%d\": its tools are not offered: it did not answer within 1s", i)
		if !strings.Contains(errOut, want) {
			t.Errorf("run stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, `"slow"`) || strings.Contains(errOut, `"live"`) {
		t.Errorf("run stderr names a server whose tools are offered:\n%s", errOut)
	}
	list, listErr := timed(exitOK, "server", "list")
	if !strings.Contains(list, "slow") || !strings.Contains(listErr, `"hole0"`) {
		t.Errorf("server list: %s\nstderr %s", list, listErr)
	}
	if doc, _ := timed(exitOK, "--model-url", model.URL(), "--model", "m", "doctor"); !strings.Contains(doc, "it did not answer within 1s") {
		t.Errorf("doctor does not say why the black holes are absent:\n%s", doc)
	}
}

// BenchmarkRunBesideDeadServers measures one `vouch run` (through run(),
// as the binary does) with a live MCP server and 0, 1 or 5 black holes
// beside it (issue 24 Speed: within 1.2 s of the run with none).
func BenchmarkRunBesideDeadServers(b *testing.B) {
	for _, dead := range []int{0, 1, 5} {
		b.Run(fmt.Sprintf("dead-%d", dead), func(b *testing.B) {
			model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Plain answer.")}}},
				agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
			b.Cleanup(model.Close)
			live, err := mcptest.NewServer(mcptest.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = live.Close() })
			state := b.TempDir()
			cliIn(b, state, "", exitOK, "server", "add", "live", "--url", live.URL)
			cliIn(b, state, "", exitOK, "server", "activate", "live")
			addDeadServers(b, state, dead)
			b.ResetTimer()
			for b.Loop() {
				cliIn(b, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "say something")
			}
		})
	}
}
