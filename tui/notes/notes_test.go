package notes

import (
	"context"
	"errors"
	"testing"
	"time"
)

type recorder struct{ got []Note }

func (r *recorder) Notify(n Note) error { r.got = append(r.got, n); return nil }

type failing struct{}

func (failing) Notify(Note) error { return errors.New("the terminal is gone") }

// TestIssueOnlyWhileUnfocused (SPEC L4): a note goes out only with a
// Notifier and while the terminal is not focused; a failure comes back as
// a NotifiedMsg.
func TestIssueOnlyWhileUnfocused(t *testing.T) {
	note := func(context.Context) Note { return Note{Kind: RunEnded, Title: "t", Body: "b"} }
	var s State
	if cmd := s.Issue(nil, note); cmd != nil || s.Issued != 0 {
		t.Fatalf("no Notifier: cmd %v, issued %d; want none", cmd != nil, s.Issued)
	}
	r := &recorder{}
	s.Focused = true
	if cmd := s.Issue(r, note); cmd != nil || s.Issued != 0 {
		t.Fatalf("focused: cmd %v, issued %d; want none", cmd != nil, s.Issued)
	}
	s.Focused = false
	cmd := s.Issue(r, note)
	if cmd == nil || s.Issued != 1 {
		t.Fatalf("unfocused: cmd %v, issued %d; want one", cmd != nil, s.Issued)
	}
	if msg := cmd().(NotifiedMsg); msg.Err != nil || len(r.got) != 1 || r.got[0].Body != "b" {
		t.Errorf("Notify: msg %+v, notes %+v", msg, r.got)
	}
	if msg := s.Issue(failing{}, note)().(NotifiedMsg); msg.Err == nil {
		t.Error("a failing Notifier reported nothing")
	}
}

// TestTurnTiming: only the timed run's end says how long it took, once.
func TestTurnTiming(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var s State
	s.TurnStarted(3, t0)
	if _, ok := s.TurnEnded(4, t0.Add(time.Minute)); ok {
		t.Error("another run's end was timed")
	}
	if took, ok := s.TurnEnded(3, t0.Add(42*time.Second)); !ok || took != 42*time.Second {
		t.Errorf("took %v, %v; want 42s", took, ok)
	}
	if _, ok := s.TurnEnded(3, t0.Add(time.Hour)); ok {
		t.Error("one turn ended twice")
	}
}

func TestWords(t *testing.T) {
	ctx := context.Background()
	label := func(_ context.Context, id string) string {
		if id == "mcp:files:read_file" {
			return "files"
		}
		return ""
	}
	last := func(context.Context) (Waiting, bool) {
		return Waiting{Identity: "mcp:files:read_file", Profile: "nightly"}, true
	}
	for _, tc := range []struct {
		name string
		got  Note
		want Note
	}{
		{"approval labelled", ApprovalWaiting(ctx, label, "mcp:files:read_file", ""),
			Note{Kind: Approval, Title: "vouch: approval waiting", Body: "files › read_file"}},
		{"approval builtin, no label", ApprovalWaiting(ctx, nil, "builtin:fs_write", " (app)"),
			Note{Kind: Approval, Title: "vouch: approval waiting (app)", Body: "fs_write"}},
		{"inbox one named", InboxRose(ctx, label, 3, 1, last),
			Note{Kind: Approval, Title: "vouch: approval waiting (background run)", Body: "files › read_file (nightly)"}},
		{"inbox several counted", InboxRose(ctx, label, 3, 2, last),
			Note{Kind: Approval, Title: "vouch: approval waiting (background run)", Body: "3 calls wait in the approvals inbox"}},
		{"inbox look-up failed", InboxRose(ctx, label, 1, 1, func(context.Context) (Waiting, bool) { return Waiting{}, false }),
			Note{Kind: Approval, Title: "vouch: approval waiting (background run)", Body: "1 call waits in the approvals inbox"}},
		{"long turn", TurnFinished(61400*time.Millisecond, false),
			Note{Kind: LongTurn, Title: "vouch: turn finished", Body: "the reply is complete after 1m1s"}},
		{"long turn failed", TurnFinished(31*time.Second, true),
			Note{Kind: LongTurn, Title: "vouch: turn finished", Body: "the turn failed after 31s"}},
		{"run failed", Ended(RunEnd{RunID: "r1", Profile: "nightly", Failed: true}),
			Note{Kind: RunEnded, Title: "vouch: background run failed", Body: "nightly: run r1 failed"}},
		{"run finished", Ended(RunEnd{RunID: "r2"}),
			Note{Kind: RunEnded, Title: "vouch: background run finished", Body: "run r2 finished"}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
	if got := ToolName("mcp:srv"); got != "mcp:srv" {
		t.Errorf("ToolName of a malformed identity = %q, want it whole", got)
	}
}

// TestWatch: ends arrive one per Cmd; a closed channel says so; a Backend
// without ends gives no Cmd.
func TestWatch(t *testing.T) {
	if Watch(nil) != nil || Watch(ends(nil)) != nil {
		t.Fatal("no ends gave a Cmd")
	}
	ch := make(chan RunEnd, 1)
	ch <- RunEnd{RunID: "r1"}
	if msg := Watch(ends(ch))().(RunEndMsg); msg.Closed || msg.End.RunID != "r1" {
		t.Errorf("first: %+v", msg)
	}
	close(ch)
	if msg := Watch(ends(ch))().(RunEndMsg); !msg.Closed {
		t.Errorf("after close: %+v, want Closed", msg)
	}
}

type ends chan RunEnd

func (e ends) RunEnds() <-chan RunEnd { return e }
