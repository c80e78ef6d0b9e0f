package ttyprompt

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"vouch/agent"

	"vouch/internal/app"
	"vouch/internal/termtest"
	"vouch/tool"
)

// ttyQuestion is the start of every question the prompt asks.
// promptTimeout bounds every wait of these tests.
const promptTimeout = 20 * time.Second

const ttyQuestion = "Allow once? Type y"

// promptReq is a call as the agent asks about it, with hostile text in
// every field a server or model controls.
func promptReq() agent.ApprovalRequested {
	return agent.ApprovalRequested{
		Call:    agent.ToolCall{Identity: "mcp:s1:write\x1b]52;c;aGk=\a", WireName: "mcp_write", CorrelationID: "corr-1", Arguments: `{"text":"\u001b[2Jgone","n":1}`},
		Tool:    tool.Def{Identity: "mcp:s1:write\x1b]52;c;aGk=\a"},
		Reason:  "every new external tool asks until you classify it",
		Preview: "--- a/x\n+++ b/x\n+\x1b[31mred\n",
	}
}

// ttyAsk runs one prompt on a fresh pty in the background; the test types
// on term and reads the outcome from the channel.
type ttyAsk struct {
	term *termtest.Term
	tty  *os.File
}

type askResult struct {
	d   agent.Decision
	err error
}

func newTTYAsk(t *testing.T) *ttyAsk {
	t.Helper()
	term, tty, err := termtest.Open(100, 40)
	if err != nil {
		t.Skipf("skipping: no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { _ = term.Close() })
	return &ttyAsk{term: term, tty: tty}
}

func (a *ttyAsk) ask(ctx context.Context, p *Prompt, req agent.ApprovalRequested) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		d, err := p.Ask(ctx, req)
		ch <- askResult{d, err}
	}()
	return ch
}

// waitQuestion waits for the next question after mark and returns a new mark.
func (a *ttyAsk) waitQuestion(t *testing.T, mark int) int {
	t.Helper()
	if err := a.term.WaitForFrom(mark, ttyQuestion, promptTimeout); err != nil {
		t.Fatalf("%v; the terminal shows:\n%s", err, a.term.Output())
	}
	return a.term.Len()
}

func (a *ttyAsk) typ(t *testing.T, s string) {
	t.Helper()
	if _, err := a.term.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// result waits for the prompt's decision, at most promptTimeout.
func (a *ttyAsk) result(t *testing.T, ch <-chan askResult) askResult {
	t.Helper()
	timer := time.NewTimer(promptTimeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r
	case <-timer.C:
		t.Fatalf("the prompt did not decide within %s; the terminal shows:\n%s", promptTimeout, a.term.Output())
		return askResult{}
	}
}

// TestTTYPromptDiscardsTypeAhead (SPEC D7, D4): a whole answer or half of
// one typed before the question cannot answer it; the question waits for an
// answer typed after it.
func TestTTYPromptDiscardsTypeAhead(t *testing.T) {
	for _, tc := range []struct {
		name, ahead string
		then        []string // typed at each question in turn
	}{
		{"a whole answer", "y\n", []string{"n\n"}},
		// The Enter completes an empty line: not an answer, asked again.
		{"a word without Enter", "y", []string{"\n", "n\n"}},
		{"two answers", "y\ny\n", []string{"n\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTTYAsk(t)
			a.typ(t, tc.ahead)                                         // in the terminal's queue before the prompt runs
			if err := a.term.WaitFor("y", promptTimeout); err != nil { // its echo: the terminal has it
				t.Fatal(err)
			}
			ch := a.ask(t.Context(), &Prompt{tty: a.tty}, promptReq())
			mark := 0
			for _, typed := range tc.then {
				mark = a.waitQuestion(t, mark)
				a.typ(t, typed)
			}
			r := a.result(t, ch)
			if r.err != nil || r.d.Allow {
				t.Fatalf("got %+v, %v; want a denial: the type-ahead %q must not answer", r.d, r.err, tc.ahead)
			}
			said := strings.Contains(a.term.Output(), "what was typed before this question was discarded")
			if whole := strings.Contains(tc.ahead, "\n"); said != whole {
				t.Errorf("says it discarded type-ahead: %v, want %v (only whole lines are counted)", said, whole)
			}
		})
	}
}

// TestTTYPromptOneAnswerPerQuestion (SPEC D7): "y⏎y⏎" typed at once allows
// this call, and the second answer is discarded, not left for the next
// question.
func TestTTYPromptOneAnswerPerQuestion(t *testing.T) {
	a := newTTYAsk(t)
	p := &Prompt{tty: a.tty}
	ch := a.ask(t.Context(), p, promptReq())
	a.waitQuestion(t, 0)
	a.typ(t, "y\ny\n")
	if r := a.result(t, ch); r.err != nil || !r.d.Allow {
		t.Fatalf("first question: got %+v, %v; want allowed", r.d, r.err)
	}
	rc, err := a.tty.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var left int
	var ierr error
	if err := rc.Control(func(fd uintptr) { left, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil || ierr != nil {
		t.Fatal(err, ierr)
	}
	if left != 0 {
		t.Fatalf("%d bytes of the second answer are still queued for the next question", left)
	}
}

// TestTTYPromptAnswers: only a word then Enter decides; a denial's words
// become the note; unclear answers ask again, three times, then deny; end
// of input denies (SPEC D4, D7).
func TestTTYPromptAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, typed string
		allow       bool
		note        string
		questions   int
	}{
		{"y", "y\n", true, "", 1},
		{"YES", "YES\n", true, "", 1},
		{"allow", " allow \n", true, "", 1},
		{"n", "n\n", false, "", 1}, // no note: nobody wrote one (issue 24 item 8)
		{"deny with a note", "deny use the other file\n", false, "use the other file", 1},
		{"empty then y", "\n", true, "", 2},
		{"yep then y", "yep\n", true, "", 2},
		{"y with more words then y", "y please\n", true, "", 2},
		{"three unclear answers", "\n", false, "denied on the terminal: no clear answer", 3},
		{"end of input", "\x04", false, "denied on the terminal (end of input)", 1},
		{"too long then y", strings.Repeat("y", 5000) + "\n", true, "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTTYAsk(t)
			ch := a.ask(t.Context(), &Prompt{tty: a.tty}, promptReq())
			mark := 0
			for i := range tc.questions {
				mark = a.waitQuestion(t, mark)
				switch {
				case i == 0:
					a.typ(t, tc.typed)
				case i < tc.questions-1 || !tc.allow:
					a.typ(t, tc.typed) // unclear again
				default:
					a.typ(t, "y\n")
				}
			}
			r := a.result(t, ch)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.d.Allow != tc.allow || r.d.Note != tc.note {
				t.Fatalf("got %+v, want allow=%v note %q; the terminal shows:\n%s", r.d, tc.allow, tc.note, a.term.Output())
			}
			if n := strings.Count(a.term.Output(), ttyQuestion); n != tc.questions {
				t.Errorf("asked %d times, want %d", n, tc.questions)
			}
		})
	}
}

// TestTTYPromptShows: the prompt shows the server's label and host as the
// approval pane does, the tool, the call, the policy's reason, every
// argument and the preview — with no control character from the server or
// model reaching the terminal (SPEC D3); long values are folded with a
// marker, and "more" shows them whole.
func TestTTYPromptShows(t *testing.T) {
	a := newTTYAsk(t)
	describe := func(identity string) (app.ToolDescription, error) {
		return app.ToolDescription{ServerName: "notes\x1b[2J server", ServerHost: "127.0.0.1:4100", Title: "Write\x07 a note", Claims: []string{"readOnlyHint: true"}}, nil
	}
	req := promptReq()
	long := strings.Repeat("abcdefghij", 100) + "END"
	req.Call.Arguments = `{"text":"\u001b[2Jgone","n":1,"body":"` + long + `"}`
	ch := a.ask(t.Context(), &Prompt{tty: a.tty, describe: describe}, req)
	mark := a.waitQuestion(t, 0)
	shown := a.term.Output()
	for _, want := range []string{"notes server · 127.0.0.1:4100", "mcp:s1:write", "corr-1", `\u001b[2Jgone`, "mcp_write", "every new external tool asks", "+++ b/x", "title: Write a note", "readOnlyHint: true", "more characters; type more", "or more (show long values whole)",
		"Only a line typed after the question answers it: whatever was typed before is discarded."} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "END") {
		t.Errorf("the long value is not folded:\n%s", shown)
	}
	a.typ(t, "more\n")
	a.waitQuestion(t, mark)
	if !strings.Contains(a.term.Output()[mark:], long) {
		t.Errorf("more did not show the long value whole:\n%s", a.term.Output()[mark:])
	}
	a.typ(t, "n\n")
	if r := a.result(t, ch); r.err != nil || r.d.Allow {
		t.Fatalf("got %+v, %v; want a denial", r.d, r.err)
	}
	out := a.term.Output()
	if strings.ContainsRune(out, 0x07) || strings.Contains(out, "\x1b]52") || strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b[31m") {
		t.Fatalf("the prompt carries control sequences: %q", out)
	}

	// Built-in tools and unknown servers are named as the pane names them.
	if got := serverLine("builtin:write_file", app.ToolDescription{}, nil); got != "built into vouch; runs on this machine" {
		t.Errorf("built-in: %q", got)
	}
	if got := serverLine("mcp:s9:x", app.ToolDescription{}, errors.New("gone")); got != "unknown (s9): gone" {
		t.Errorf("unknown server: %q", got)
	}
	if got := serverLine("mcp:s9:x", app.ToolDescription{}, nil); got != "id s9 (no label known)" {
		t.Errorf("no label: %q", got)
	}
}

// TestTTYPromptErrors: a cancelled run stops waiting; a terminal that
// cannot be written or read is an error (the run then stops, nothing
// executed), worded so it can be shown in one sentence.
func TestTTYPromptErrors(t *testing.T) {
	a := newTTYAsk(t)
	ctx, cancel := context.WithCancel(t.Context())
	ch := a.ask(ctx, &Prompt{tty: a.tty}, promptReq())
	a.waitQuestion(t, 0)
	cancel()
	if r := a.result(t, ch); !errors.Is(r.err, context.Canceled) || r.d.Allow {
		t.Fatalf("cancelled: got %+v, %v; want context.Canceled", r.d, r.err)
	}

	closed, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := (&Prompt{tty: closed}).Ask(t.Context(), promptReq())
	if err == nil || d.Allow || !strings.Contains(err.Error(), "write the question to the terminal") {
		t.Fatalf("closed terminal: got %+v, %v; want a wrapped write error", d, err)
	}
	notTTY, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = notTTY.Close() }()
	d, err = (&Prompt{tty: notTTY}).Ask(t.Context(), promptReq())
	if err == nil || d.Allow || !strings.Contains(err.Error(), "discard what was typed before the question") {
		t.Fatalf("not a terminal: got %+v, %v; want a wrapped flush error", d, err)
	}
}
