package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/termtest"
	"vouch/mcpclient/mcptest"
)

// ptyQuestion is text of every question `vouch run --approve-tty` asks.
const ptyQuestion = "Allow once?"

// twoNotesScript makes two calls of the MCP note tool, one after the other,
// each of which needs approval: "alpha" after streaming text that holds at
// gate, then "beta"; after both results it answers.
func twoNotesScript(gate <-chan struct{}) agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: toolResults(2), Steps: agenttest.Words("Both notes are settled.")},
		{Match: toolResults(1), Steps: []agenttest.Step{agenttest.ToolCall(0, "c2", "mcp_note", `{"text":"beta"}`)}},
		{Match: agenttest.Offers("mcp_note"), Steps: []agenttest.Step{
			agenttest.Text("Taking notes "), agenttest.Wait(gate), agenttest.Text("now. "),
			agenttest.ToolCall(0, "c1", "mcp_note", `{"text":"alpha"}`),
		}},
	}}
}

// toolResults matches a request that carries exactly n tool results.
func toolResults(n int) func(agenttest.Request) bool {
	return func(r agenttest.Request) bool {
		got := 0
		for _, m := range r.Messages {
			if m.Role == "tool" {
				got++
			}
		}
		return got == n
	}
}

// ttyRun is the built binary running `vouch run --approve-tty` on a real
// pseudo-terminal, against a scripted model and a real MCP server.
type ttyRun struct {
	t     *testing.T
	term  *termtest.Term
	notes *mcptest.Server
}

func startTTYRun(t *testing.T, gate <-chan struct{}) *ttyRun {
	t.Helper()
	notes := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "notes", "--url", notes.URL)
	cli(t, state, "", exitOK, "server", "activate", "notes")
	return startTTYRunOn(t, gate, state, notes)
}

// startTTYRunOn starts `vouch run --approve-tty "take two notes"` on state,
// whose active server "notes" is notes.
func startTTYRunOn(t *testing.T, gate <-chan struct{}, state string, notes *mcptest.Server) *ttyRun {
	t.Helper()
	bin := buildVouch(t)
	model := agenttest.New(twoNotesScript(gate), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	t.Cleanup(model.Close)
	cmd := exec.Command(bin, "--state-dir", state, "--model-url", model.URL(), "--model", "m", "run", "--approve-tty", "take two notes")
	cmd.Env = os.Environ()
	for k, v := range cliEnv() {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	term, err := termtest.Start(cmd, 120, 40)
	if err != nil {
		t.Skipf("skipping: no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { _ = term.Close() })
	return &ttyRun{t: t, term: term, notes: notes}
}

// waitFor waits for s in the output after mark and returns the new mark.
func (r *ttyRun) waitFor(mark int, s string) int {
	r.t.Helper()
	if err := r.term.WaitForFrom(mark, s, e2eTimeout); err != nil {
		r.t.Fatalf("%v\nnotes written: %q\nthe terminal shows:\n%s", err, r.notes.Notes(), r.term.Output())
	}
	// The mark is just past this match, not the end of what has arrived:
	// under load the next text (a question) can come in the same read,
	// and a mark at the end would skip it.
	out := r.term.Output()
	return mark + strings.Index(out[min(mark, len(out)):], s) + len(s)
}

// typ types s, as a person at the keyboard.
func (r *ttyRun) typ(s string) {
	r.t.Helper()
	if _, err := r.term.Write([]byte(s)); err != nil {
		r.t.Fatalf("type %q: %v (had vouch already ended?)\nnotes written: %q\nthe terminal shows:\n%s", s, err, r.notes.Notes(), r.term.Output())
	}
}

// wantNotes checks what the MCP server executed.
func (r *ttyRun) wantNotes(when string, want ...string) {
	r.t.Helper()
	if got := r.notes.Notes(); !slices.Equal(got, want) {
		r.t.Fatalf("%s: the server executed notes %q, want exactly %q (what was deliberately approved)\nthe terminal shows:\n%s", when, got, want, r.term.Output())
	}
}

// wantExit waits for vouch to exit 0.
func (r *ttyRun) wantExit() {
	r.t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.term.Wait() }()
	timer := time.NewTimer(e2eTimeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			r.t.Fatalf("vouch run --approve-tty: %v\nthe terminal shows:\n%s", err, r.term.Output())
		}
	case <-timer.C:
		r.t.Fatalf("vouch run --approve-tty did not exit within %s\nthe terminal shows:\n%s", e2eTimeout, r.term.Output())
	}
}

// TestApproveTTYTypeAheadOnPTY (SPEC D7, D4, D3; issue: headless prompts)
// runs the built binary's `vouch run --approve-tty` on a real pty. "y⏎"
// typed while the answer streams, before any question, is discarded: the
// first question still waits, and nothing runs.
func TestApproveTTYTypeAheadOnPTY(t *testing.T) {
	gate := make(chan struct{})
	r := startTTYRun(t, gate)
	mark := r.waitFor(0, "Taking notes")
	r.typ("y\n") // type-ahead: no question is on screen
	close(gate)
	mark = r.waitFor(mark, `"alpha"`)
	mark = r.waitFor(mark, ptyQuestion)
	if !strings.Contains(r.term.Output(), "notes · 127.0.0.1:") {
		t.Errorf("the prompt does not name the server's label and host:\n%s", r.term.Output())
	}
	r.wantNotes("at the first question")
	r.typ("n\n")
	mark = r.waitFor(mark, `"beta"`)
	mark = r.waitFor(mark, ptyQuestion)
	r.wantNotes("at the second question, after denying the first")
	r.typ("n\n")
	r.waitFor(mark, "Both notes are settled.")
	r.wantExit()
	r.wantNotes("after the run")
	if n := r.notes.Calls("note"); n != 0 {
		t.Fatalf("the note tool ran %d times; nothing was approved", n)
	}
}

// TestApproveTTYTwoAnswersAtOnceOnPTY (SPEC D7, D4): "y⏎y⏎" typed at once
// at the first question allows that call only; the second answer is
// discarded, and the second question waits for an answer of its own.
func TestApproveTTYTwoAnswersAtOnceOnPTY(t *testing.T) {
	gate := make(chan struct{})
	close(gate)
	r := startTTYRun(t, gate)
	mark := r.waitFor(0, ptyQuestion)
	r.wantNotes("at the first question")
	r.typ("y\ny\n")
	mark = r.waitFor(mark, `"beta"`)
	mark = r.waitFor(mark, ptyQuestion)
	r.wantNotes("at the second question", "alpha")
	r.typ("n\n")
	r.waitFor(mark, "Both notes are settled.")
	r.wantExit()
	r.wantNotes("after the run", "alpha")
	if n := r.notes.Calls("note"); n != 1 {
		t.Fatalf("the note tool ran %d times; exactly one call was approved", n)
	}
}
