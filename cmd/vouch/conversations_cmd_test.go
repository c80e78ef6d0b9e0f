package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestConversationsAndContinueL5 drives `vouch conversations` and `vouch
// run --continue` through run() (SPEC L5, M; issue 18): two headless runs
// make two conversations, listed newest first with title, model and
// message count; continuing the first sends its earlier messages to the
// model and adds to it instead of starting a third; an unknown ID is one
// sentence and exit 2.
func TestConversationsAndContinueL5(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	flags := []string{"--model-url", model.URL(), "--model", "m"}

	out, _ := cli(t, state, "", exitOK, "conversations")
	if !strings.Contains(out, "no conversations yet") {
		t.Errorf("empty list: %q", out)
	}
	cli(t, state, "", exitOK, append(flags, "run", "remember the word pelican")...)
	cli(t, state, "", exitOK, append(flags, "run", "an unrelated second task")...)

	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil {
		t.Fatalf("conversations --json: %v\n%s", err, js)
	}
	if len(rows) != 2 || rows[0].Title != "an unrelated second task" || rows[1].Title != "remember the word pelican" {
		t.Fatalf("rows = %+v; want the two tasks as titles, newest first", rows)
	}
	first := rows[1]
	if first.Model != "m" || first.Messages < 2 || first.ID == "" || first.Updated.IsZero() {
		t.Errorf("first row = %+v; want model m, at least 2 messages, an ID and a date", first)
	}
	table, _ := cli(t, state, "", exitOK, "conversations", "--limit", "1")
	if !strings.Contains(table, rows[0].ID) || strings.Contains(table, first.ID) {
		t.Errorf("--limit 1 lists: %s", table)
	}

	cli(t, state, "", exitOK, append(flags, "run", "--continue", first.ID, "which word?")...)
	reqs := model.Requests()
	last := reqs[len(reqs)-1]
	var sent []string
	for _, m := range last.Messages {
		sent = append(sent, m.Role+": "+m.Content)
	}
	joined := strings.Join(sent, "\n")
	if !strings.Contains(joined, "user: remember the word pelican") || !strings.Contains(joined, "user: which word?") ||
		strings.Contains(joined, "unrelated") {
		t.Errorf("continued run sent:\n%s\nwant the first conversation's messages and the new task, not the other's", joined)
	}
	js, _ = cli(t, state, "", exitOK, "conversations", "--json")
	rows = nil
	if err := json.Unmarshal([]byte(js), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ID != first.ID || rows[0].Messages <= first.Messages {
		t.Fatalf("after --continue: %+v; want still two, the continued one first with more messages", rows)
	}

	// A unique prefix of the ID continues it, as git takes one (issue 28
	// item 20); a prefix both IDs share is refused with one sentence.
	other := rows[1].ID
	common := 0
	for common < len(other) && common < len(first.ID) && other[common] == first.ID[common] {
		common++
	}
	before := len(model.Requests())
	cli(t, state, "", exitOK, append(flags, "run", "--continue", first.ID[:max(common+1, 4)], "and again?")...)
	if reqs := model.Requests(); len(reqs) <= before || !strings.Contains(fmt.Sprint(reqs[len(reqs)-1].Messages), "pelican") {
		t.Errorf("a unique prefix did not continue the conversation")
	}
	if common >= 4 {
		_, errOut := cli(t, state, "", exitUsage, append(flags, "run", "--continue", first.ID[:common], "hello")...)
		if !strings.Contains(errOut, "more than one conversation's ID starts with") {
			t.Errorf("an ambiguous prefix: stderr %q", errOut)
		}
	}
	_, errOut := cli(t, state, "", exitUsage, append(flags, "run", "--continue", "no-such-id", "hello")...)
	if !strings.Contains(errOut, `no conversation has the ID "no-such-id"`) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
		t.Errorf("unknown ID: stderr %q; want one sentence naming it", errOut)
	}
	cli(t, state, "", exitUsage, append(flags, "run", "--continue", first.ID, "--profile", "p", "x")...)
	cli(t, state, "", exitUsage, "conversations", "extra")
}
