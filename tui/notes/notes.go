package notes

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// DefaultLongTurn is the threshold of a long turn when none is set (the
// long-turn setting's default).
const DefaultLongTurn = 30 * time.Second

// describeTimeout bounds the look-ups of a note's words.
const describeTimeout = 2 * time.Second

// Kind is what a notification is about.
type Kind int

// The kinds of notes.
const (
	Approval Kind = iota // a call waits for approval
	RunEnded             // a background run finished or failed
	LongTurn             // a long turn completed
)

// Note is one notification. Title and Body may carry untrusted text (a
// server's label, a tool name); the Notifier neutralises them.
type Note struct {
	Kind  Kind
	Title string
	Body  string
}

// Notifier sends notes to the terminal. Notify is called from a Cmd, never
// from Update, and may be called from several at once.
type Notifier interface {
	Notify(Note) error
}

// FocusNotifier is an optional capability of a Notifier: it hears that the
// terminal gained focus, to drop notes it still holds back (the rate
// limit's), since the person now sees what they would say. Called from a
// Cmd.
type FocusNotifier interface {
	Focused()
}

// RunEnds is an optional capability of the Backend: it delivers the end of
// each background run (a profile run started with g, a scheduled run).
// Every call returns the same channel (nil: ends are not delivered); it is
// closed when vouch stops delivering.
type RunEnds interface {
	RunEnds() <-chan RunEnd
}

// RunEnd is how a background run ended.
type RunEnd struct {
	RunID   string
	Profile string
	// Failed is set when it failed; Outcome is the outcome as run history
	// names it ("done", "failed", "waiting-approval", …).
	Failed  bool
	Outcome string
}

// NotifiedMsg reports a Notify that failed (nil Err: nothing to say).
type NotifiedMsg struct{ Err error }

// RunEndMsg carries one RunEnd, or Closed when the channel closed.
type RunEndMsg struct {
	End    RunEnd
	Closed bool
}

// State is what the root knows for notifications: the terminal's focus and
// the turn being timed.
type State struct {
	// Focused is the terminal's last focus report; false until it sends one.
	Focused bool
	// turnRun and turnStart are the run whose turn is being timed.
	turnRun   int
	turnStart time.Time
	// Issued counts the notes handed to the Notifier.
	Issued int
}

// Issue returns the Cmd that hands the note n makes to nf, counting it, or
// nil when there is no Notifier or the person is looking at the terminal.
// n runs inside the Cmd with a bounded context, for its look-ups.
func (s *State) Issue(nf Notifier, n func(context.Context) Note) tea.Cmd {
	if nf == nil || s.Focused {
		return nil
	}
	s.Issued++
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), describeTimeout)
		defer cancel()
		return NotifiedMsg{Err: nf.Notify(n(ctx))}
	}
}

// TurnStarted starts timing the turn of run at now.
func (s *State) TurnStarted(run int, now time.Time) { s.turnRun, s.turnStart = run, now }

// TurnEnded stops timing run's turn at now and says how long it took; ok
// is false when that turn was not being timed.
func (s *State) TurnEnded(run int, now time.Time) (took time.Duration, ok bool) {
	if s.turnRun != run || s.turnStart.IsZero() {
		return 0, false
	}
	took = now.Sub(s.turnStart)
	s.turnStart = time.Time{}
	return took, true
}

// Watch returns the Cmd that waits for the next background run's end, or
// nil when r delivers none.
func Watch(r RunEnds) tea.Cmd {
	if r == nil {
		return nil
	}
	ch := r.RunEnds()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		end, ok := <-ch
		return RunEndMsg{End: end, Closed: !ok}
	}
}

// Label looks up the label of the server of a tool identity ("" when
// unknown); called inside a note's Cmd.
type Label func(ctx context.Context, identity string) string

// ApprovalWaiting is the note for a call of identity that waits; where says
// where it waits ("" for the chat).
func ApprovalWaiting(ctx context.Context, label Label, identity, where string) Note {
	return Note{Kind: Approval, Title: "vouch: approval waiting" + where, Body: labelled(ctx, label, identity)}
}

// Waiting is one call waiting in the approvals inbox.
type Waiting struct {
	Identity string
	Profile  string
}

// InboxRose is the note for count calls waiting in the inbox after added
// arrived. One arrival is named, from last (nil: the count only).
func InboxRose(ctx context.Context, label Label, count, added int, last func(context.Context) (Waiting, bool)) Note {
	n := Note{Kind: Approval, Title: "vouch: approval waiting (background run)",
		Body: fmt.Sprintf("%d calls wait in the approvals inbox", count)}
	if count == 1 {
		n.Body = "1 call waits in the approvals inbox"
	}
	if added > 1 || last == nil {
		return n
	}
	w, ok := last(ctx)
	if !ok {
		return n
	}
	n.Body = labelled(ctx, label, w.Identity)
	if w.Profile != "" {
		n.Body += " (" + w.Profile + ")"
	}
	return n
}

// TurnFinished is the note for a long turn that took took; failed says it
// ended in an error.
func TurnFinished(took time.Duration, failed bool) Note {
	body := "the reply is complete after " + took.Round(time.Second).String()
	if failed {
		body = "the turn failed after " + took.Round(time.Second).String()
	}
	return Note{Kind: LongTurn, Title: "vouch: turn finished", Body: body}
}

// Ended is the note for a background run's end.
func Ended(e RunEnd) Note {
	title, verb := "vouch: background run finished", "finished"
	if e.Failed {
		title, verb = "vouch: background run failed", "failed"
	}
	body := "run " + e.RunID + " " + verb
	if e.Profile != "" {
		body = e.Profile + ": " + body
	}
	return Note{Kind: RunEnded, Title: title, Body: body}
}

// labelled is "<server label> › <tool>", or the tool alone.
func labelled(ctx context.Context, label Label, identity string) string {
	body := ToolName(identity)
	if label != nil {
		if l := label(ctx, identity); l != "" {
			body = l + " › " + body
		}
	}
	return body
}

// ToolName is the tool's name in its identity ("mcp:<server>:<tool>",
// "builtin:<tool>").
func ToolName(identity string) string {
	if rest, ok := strings.CutPrefix(identity, "mcp:"); ok {
		if _, name, ok := strings.Cut(rest, ":"); ok {
			return name
		}
	}
	if name, ok := strings.CutPrefix(identity, "builtin:"); ok {
		return name
	}
	return identity
}
