package main

import (
	"strings"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// TestRuleBeforeServedAsksOnce (SPEC D8, D4; issue 24 item 1) runs the
// built binary's `vouch run --approve-tty` on a real pty against a real
// mcp-go server. A rule is set for the note tool while the server does not
// serve it yet, so it pins nothing; then the server starts serving it.
// The first run's first call asks, showing the whole definition served;
// denying pins nothing, so the second call asks again. In the next run
// the first call asks again, "y" allows it and pins the rule to that
// definition: the second call of the same run runs without asking, a
// later headless run is allowed by the rule, and `vouch policy list`
// shows the rule pinned and not changed.
func TestRuleBeforeServedAsksOnce(t *testing.T) {
	notes := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "notes", "--url", notes.URL)
	cli(t, state, "", exitOK, "server", "activate", "notes")
	id := "mcp:" + serverIDOf(t, state) + ":note"
	cli(t, state, "", exitOK, "policy", "set", id, "allow", "--effect", "read-only")
	if r := ruleOf(t, state, id); r.Pin != nil {
		t.Fatalf("a rule set before the tool was served is pinned: %+v", r)
	}
	if err := notes.Serve("note"); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	close(gate)

	r := startTTYRunOn(t, gate, state, notes)
	mark := r.waitFor(0, ptyQuestion)
	for _, want := range []string{agent.UnseenTitle, agent.UnseenAllowPins, "Append a note (changes the server's state)."} {
		if !strings.Contains(r.term.Output(), want) {
			t.Errorf("the first question does not show %q:\n%s", want, r.term.Output())
		}
	}
	r.typ("n\n")
	mark = r.waitFor(mark, ptyQuestion) // the denial pinned nothing: the second call asks too
	r.typ("n\n")
	r.waitFor(mark, "Both notes are settled.")
	r.wantExit()
	r.wantNotes("after denying both")
	if rule := ruleOf(t, state, id); rule.Pin != nil || !rule.Changed {
		t.Fatalf("after a denial the rule is %+v, want it still unpinned and marked", rule)
	}

	r = startTTYRunOn(t, gate, state, notes)
	mark = r.waitFor(0, ptyQuestion)
	r.typ("y\n")
	r.waitFor(mark, "Both notes are settled.")
	r.wantExit()
	r.wantNotes("after allowing the first call", "alpha", "beta")
	if n := strings.Count(r.term.Output(), ptyQuestion); n != 1 {
		t.Errorf("the run asked %d times; allowing the first definition served pins the rule, so it asks once:\n%s", n, r.term.Output())
	}
	rule := ruleOf(t, state, id)
	if rule.Pin == nil || rule.Changed || rule.Problem != "" || rule.Class != policy.Allow {
		t.Fatalf("after allowing, the rule is %+v, want it pinned to the definition served, unchanged", rule)
	}

	// A new run: the rule applies to the pinned definition without asking.
	model := agenttest.New(twoNotesScript(gate), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "take two notes")
	if got := notes.Notes(); len(got) != 4 {
		t.Errorf("the pinned rule did not allow the headless run: notes %q", got)
	}
}
