package termout

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/mcpclient"
)

// TestNoticeNamesVouchOnce (issue 18 item 19): a notice of vouch run that
// names vouch itself is not prefixed with "vouch: " again.
func TestNoticeNamesVouchOnce(t *testing.T) {
	var out, errOut strings.Builder
	o := New(&out, &errOut, false, false, nil, nil)
	if err := o.Show(agent.Usage{ToolsNote: "vouch's file tools were left out: they do not fit"}); err != nil {
		t.Fatal(err)
	}
	if err := o.Show(agent.Usage{PromptCut: 100}); err != nil {
		t.Fatal(err)
	}
	want := "vouch's file tools were left out: they do not fit\nvouch: the server cut this prompt to 100 tokens; vouch sends less from now on\n"
	if errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
}

// TestProgressOnlyOnATerminal (SPEC B11): progress goes to stderr only
// when stderr is a terminal, at most one line per progressEvery, and the
// server's text is neutralized.
func TestProgressOnlyOnATerminal(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ev := agent.ToolProgress{Identity: "mcp:s:slow", Progress: 1, Total: 3, Message: "step\x1b[2J 1"}
	for _, tc := range []struct {
		name     string
		terminal bool
		steps    []time.Duration // clock offsets of successive events
		want     int             // progress lines written
	}{
		{"not a terminal", false, []time.Duration{0}, 0},
		{"a terminal", true, []time.Duration{0}, 1},
		{"rate-limited", true, []time.Duration{0, 100 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			now := at
			o := &Output{stdout: &strings.Builder{}, stderr: &stderr, stderrTerminal: tc.terminal, now: func() time.Time { return now }}
			for _, d := range tc.steps {
				now = at.Add(d)
				if err := o.Show(ev); err != nil {
					t.Fatal(err)
				}
			}
			if got := strings.Count(stderr.String(), "progress 1/3"); got != tc.want {
				t.Fatalf("got %d progress lines, want %d:\n%q", got, tc.want, stderr.String())
			}
			if strings.Contains(stderr.String(), "\x1b") {
				t.Fatalf("an escape sequence reached stderr: %q", stderr.String())
			}
		})
	}
}

// TestReportAbsentNeutralises: a server's name and reason reach stderr on
// one line each, without its control sequences (issue 24 item 2).
func TestReportAbsentNeutralises(t *testing.T) {
	var w strings.Builder
	if err := ReportAbsent(&w, []mcpclient.Absent{{Name: "evil\x1b]0;x\x07", Why: "down\nnow"}}); err != nil {
		t.Fatal(err)
	}
	if got := w.String(); strings.Count(got, "\n") != 1 || strings.ContainsAny(got, "\x1b\x07") || !strings.HasPrefix(got, "vouch: MCP server ") {
		t.Errorf("ReportAbsent wrote %q", got)
	}
}

// TestApproverBreaksTheLine: a question asked while the answer is
// mid-line on a screen starts on a line of its own; nil stays nil, so a
// run with nobody to ask stops at the first call that asks (exit 4).
func TestApproverBreaksTheLine(t *testing.T) {
	var out strings.Builder
	o := &Output{stdout: &out, stderr: &strings.Builder{}, screen: true, now: time.Now}
	if o.Approver(nil) != nil {
		t.Fatal("Approver(nil) is not nil")
	}
	if err := o.Show(agent.TextDelta{Text: "Taking notes"}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("asked")
	_, err := o.Approver(func(agent.ApprovalRequested) (agent.Decision, error) {
		if out.String() != "Taking notes\n" {
			t.Errorf("stdout when asked = %q, want the answer's line ended", out.String())
		}
		return agent.Decision{}, stop
	})(agent.ApprovalRequested{})
	if !errors.Is(err, stop) {
		t.Errorf("the approver returned %v, want the asker's error", err)
	}
}
