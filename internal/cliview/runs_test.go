package cliview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/internal/app"
)

// hostile carries the escape sequences a server, a model or a skill
// could plant: OSC 52 (clipboard), a title change, a colour, a newline.
const hostile = "ev\x1b]52;c;aGk=\x07il\x1b[31m\nnext"

// assertNeutral fails when text holds a raw ESC or BEL (SPEC D3).
func assertNeutral(t *testing.T, text string) {
	t.Helper()
	if strings.ContainsAny(text, "\x1b\x07") {
		t.Fatalf("untrusted control characters reached the text: %q", text)
	}
}

func TestRunListTableAndCursor(t *testing.T) {
	if got := RunList(nil, ""); got != "no runs yet\n" {
		t.Fatalf("empty list = %q", got)
	}
	started := time.Date(2026, 3, 1, 9, 30, 0, 0, time.Local)
	runs := []app.RunRecord{
		{ID: "r2", Kind: "profile", Profile: "nightly", ProfileRevision: 3, Task: "sum " + hostile, Started: started, Outcome: "done"},
		{ID: "r1", Kind: "chat", Task: "hello", Started: started, Outcome: "failed"},
	}
	got := RunList(runs, "r1")
	want := "ID  STARTED           KIND     PROFILE    OUTCOME  TASK\n" +
		"r2  2026-03-01 09:30  profile  nightly@3  done     "
	if !strings.HasPrefix(got, want) {
		t.Fatalf("RunList =\n%s\nwant a start of\n%s", got, want)
	}
	if !strings.Contains(got, "r1  2026-03-01 09:30  chat     -          failed   hello\n") {
		t.Fatalf("a chat run shows no profile as '-':\n%s", got)
	}
	if !strings.HasSuffix(got, "more: vouch runs --before r1\n") {
		t.Fatalf("the next page's command is missing:\n%s", got)
	}
	if strings.Count(got, "\n") != 4 {
		t.Fatalf("a task's newline broke the row:\n%s", got)
	}
	assertNeutral(t, got)
}

func TestRunDetailFieldsEventsAndDecisions(t *testing.T) {
	var d app.RunRecordDetail
	raw := `{"run":{"id":"r9","kind":"headless","task":"t` + `\u001b]0;title\u0007","started":"2026-03-01T09:30:00Z",` +
		`"outcome":"failed","error":"model gone","events_dropped":2},` +
		`"events":[{"at":"2026-03-01T09:30:01Z","kind":"tool_call","identity":"mcp:a/b","correlation_id":"c1","text":"x\u001b[2J"}],` +
		`"decisions":[{"at":"2026-03-01T09:30:02Z","outcome":"allowed","identity":"mcp:a/b","correlation_id":"c1","by":"person","note":"ok"}]}`
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatal(err)
	}
	d.Spec = &app.FrozenSpec{Model: "qwen", ContextWindow: 8192, WindowSource: "server"}
	got := RunDetail(d)
	for _, want := range []string{
		"run      r9 (headless)\n",
		"outcome  failed\nreason   model gone\n",
		"model   qwen, window 8192 (server)\n",
		"tools   none\n",
		"events\n  ",
		" tool_call mcp:a/b [c1]: x",
		"decisions\n  ",
		" allowed mcp:a/b [c1] by person (note: ok)\n",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("RunDetail lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(got, "(2 later events were not kept: history keeps") {
		t.Fatalf("dropped events are not said:\n%s", got)
	}
	if !strings.Contains(got, "→ still running\n") {
		t.Fatalf("a run without an end must read 'still running':\n%s", got)
	}
	assertNeutral(t, got)
}

func TestWorkflowsStatusSentences(t *testing.T) {
	st := app.WorkflowsStatus{Enabled: false, Profiles: 1, Schedules: []app.ScheduleStatus{{Profile: "p" + hostile, Spec: "every 1h", Paused: "workflows off"}}}
	got := WorkflowsStatus(st, "schedules fire while vouch runs")
	want := "Agent Workflows is off: no profile or scheduled runs, schedules paused, chat offers only built-in tools; nothing is deleted\n" +
		"1 profile, 1 with a schedule.\nschedules fire while vouch runs\np"
	// A schedule's line is neutralised whole: its tabs read as spaces.
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "next every 1h paused: workflows off\n") {
		t.Fatalf("WorkflowsStatus =\n%q", got)
	}
	assertNeutral(t, got)
}
