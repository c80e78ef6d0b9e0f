package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vouch/e2e/ollama"
)

// TestE2EOllamaColdCut (SPEC A3, A7, F4; issue 24 item 3) against the real
// Ollama 0.17.4, started with OLLAMA_CONTEXT_LENGTH=2048, and a model with
// no num_ctx that nothing has loaded: /api/show lets vouch guess 4,096,
// and `vouch doctor` says that is a guess until the model loads. A run
// whose prompt is about 2,700 tokens is cut by Ollama to 2,048 without an
// error; vouch reads /api/ps after the reply, reports the cut on stderr
// and the window Ollama runs in --json usage, and the next run of the
// conversation fits that window, nothing cut.
func TestE2EOllamaColdCut(t *testing.T) {
	s := ollama.StartCold(t, 2048)
	state := t.TempDir()
	doc, _ := cli(t, state, "", exitOK, "--model-url", s.Base(), "--model", ollama.ColdModel, "doctor")
	if !strings.Contains(doc, "a guess until the model loads") {
		t.Errorf("doctor on the cold model:\n%s\nwant its window marked a guess", doc)
	}
	task := strings.Repeat("The harbour office keeps a ledger of every ship that docks, the cargo it carries and the week it sails again. ", 72) +
		"Which ships sailed this week?"
	code, res, errOut := vouchRunJSON(t, state, s.Base(), ollama.ColdModel, task)
	cut := regexp.MustCompile(`the server cut this prompt to [0-9]+ tokens`)
	if code != exitOK || res.Usage == nil || res.Usage.ContextWindow != 2048 || !cut.MatchString(errOut) {
		t.Fatalf("the cold run: exit %d, usage %+v\nstderr: %s\nwant the cut reported and the 2,048-token window Ollama runs", code, res.Usage, errOut)
	}
	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("conversations --json: %v, %s", err, js)
	}
	_, errOut = cli(t, state, "", exitOK, "--model-url", s.Base(), "--model", ollama.ColdModel, "run", "--continue", rows[0].ID, "and now?")
	if cut.MatchString(errOut) || !strings.Contains(errOut, "earlier messages of this conversation were left out") {
		t.Errorf("the next run: stderr %s\nwant the long message left out to fit and nothing cut", errOut)
	}
}
