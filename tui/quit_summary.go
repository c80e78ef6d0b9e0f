package tui

import (
	"fmt"
	"strings"

	"vouch/safetext"
	"vouch/tui/chat"
	"vouch/tui/kit"
)

// quitSummaryWidth bounds each line of the quit summary; the scrollback it
// lands in may be narrower than the interface was.
const quitSummaryWidth = 76

// QuitSummary is what vouch leaves in the scrollback after the person
// quits (SPEC L6; issue 18 item 21): a line saying the conversation was
// kept and how to go on, and its last exchange, each line one neutralised
// line. It is empty while nothing was said. The caller prints it after the
// program has left the alternate screen (cmd/vouch's runProgram); View
// draws nothing once quitting.
func (m Model) QuitSummary() string {
	var messages int
	var lastUser, lastAnswer *chat.Item
	for _, it := range m.chat.Items {
		switch it.Kind {
		case chat.ItemUser:
			messages++
			lastUser, lastAnswer = it, nil
		case chat.ItemAssistant:
			messages++
			if strings.TrimSpace(it.Text) != "" {
				lastAnswer = it
			}
		}
	}
	if messages == 0 {
		return ""
	}
	head := fmt.Sprintf("vouch: conversation saved (%s); run vouch to go on with it.", kit.Plural(messages, "message"))
	if m.opts.Demo {
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

// summaryLine is "  who: text" on one line: text's lines joined, hidden
// and control characters neutralised, cut to quitSummaryWidth.
func summaryLine(who, text string) string {
	prefix := "  " + who + ": "
	return prefix + safetext.Line(text, quitSummaryWidth-len(prefix))
}
