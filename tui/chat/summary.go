package chat

import (
	"context"
	"fmt"
	"strings"

	"vouch/agent"
	"vouch/internal/msgcount"
	"vouch/safetext"
	"vouch/tui/kit"
)

// SummaryWidth bounds each line of the quit summary (Summary); the scrollback it
// lands in may be narrower than the interface was.
const SummaryWidth = 76

// Summary is what vouch leaves in the scrollback after the person quits
// (SPEC L6; issue 18 item 21): a line saying the conversation was kept and
// how to go on — or, in the demo, that it was not — and its last exchange,
// each line one neutralised line of at most SummaryWidth. It is empty
// while nothing was said. Its count is the conversation list's
// (Messages).
func (t *Transcript) Summary(demo bool) string {
	var lastUser, lastAnswer *Item
	for _, it := range t.Items {
		switch {
		case it.Kind == ItemUser:
			lastUser, lastAnswer = it, nil
		case it.Kind == ItemAssistant && strings.TrimSpace(it.Text) != "":
			lastAnswer = it
		}
	}
	messages := t.Messages()
	if messages == 0 {
		return ""
	}
	head := fmt.Sprintf("vouch: conversation saved (%s); run vouch to go on with it.", kit.Plural(messages, "message"))
	if demo {
		head = fmt.Sprintf("vouch demo: %s, not kept (the demo's state is thrown away); run vouch for your own.", kit.Plural(messages, "message"))
	}
	lines := []string{head}
	if lastUser != nil {
		lines = append(lines, summaryLine("You", lastUser.Text))
	}
	if lastAnswer != nil {
		lines = append(lines, summaryLine("Assistant", lastAnswer.Text))
	}
	return strings.Join(lines, "\n")
}

// Messages is how many messages the conversation holds, counted as the
// conversation list counts stored ones (msgcount: the person's, and the
// model's answers in words; tool calls, results, reasoning and notes are
// not messages): those the transcript shows, and the Earlier ones it
// does not.
func (t *Transcript) Messages() int {
	n := t.Earlier
	for _, it := range t.Items {
		switch it.Kind {
		case ItemUser:
			n += msgcount.Of(msgcount.RoleUser, it.Text)
		case ItemAssistant:
			n += msgcount.Of(msgcount.RoleAssistant, it.Text)
		}
	}
	return n
}

// Counter tells how many messages the stored conversation holds, as
// msgcount counts them, for a conversation shown only in part (the
// interface loads its newest records). Its method may block on I/O: it
// is called only from inside a tea.Cmd.
type Counter interface {
	StoredMessages(ctx context.Context) (int, error)
}

// EarlierMessages is how many of the stored conversation's messages msgs
// (the part of it shown) leaves out: c's count less those in msgs.
func EarlierMessages(ctx context.Context, c Counter, msgs []agent.Message) (int, error) {
	n, err := c.StoredMessages(ctx)
	if err != nil {
		return 0, fmt.Errorf("could not count the conversation's messages: %w", err)
	}
	for _, m := range msgs {
		n -= msgcount.Of(string(m.Role), m.Content)
	}
	return max(n, 0), nil
}

// summaryLine is "  who: text" on one line: text's lines joined, hidden
// and control characters neutralised, cut to SummaryWidth.
func summaryLine(who, text string) string {
	prefix := "  " + who + ": "
	return prefix + safetext.Line(text, SummaryWidth-len(prefix))
}

// InboxKept is the quit summary's line for n calls of background runs
// waiting in the approvals inbox, which the session keeps (issue 28 item
// 4); key opens the inbox.
func InboxKept(n int, key string) string {
	what := fmt.Sprintf("%d calls wait", n)
	if n == 1 {
		what = "1 call waits"
	}
	return summaryWrap(fmt.Sprintf("vouch: %s in the approvals inbox; the session keeps them until their deadline — run vouch and press %s to answer.", what, key))
}

// RunsKept is the quit summary's line for n background runs still going
// (`vouch run --detach`, a profile's or a schedule's run), which the
// session keeps (SPEC K4; issue 28 item 4); key opens run history, ""
// when the interface has none.
func RunsKept(n int, key string) string {
	what := fmt.Sprintf("%d background runs go on in the session, which keeps them until they end", n)
	if n == 1 {
		what = "1 background run goes on in the session, which keeps it until it ends"
	}
	if key == "" {
		return summaryWrap("vouch: " + what + " — 'vouch runs' lists them.")
	}
	return summaryWrap(fmt.Sprintf("vouch: %s — run vouch and press %s to follow.", what, key))
}

// summaryWrap wraps one sentence of the quit summary at words, each line
// at most SummaryWidth, the lines after the first indented.
func summaryWrap(s string) string {
	return strings.Join(wrapPlain(s, SummaryWidth-2), "\n  ")
}
