package tui

import (
	"fmt"
	"strings"

	"vouch/tui/kit"

	"github.com/charmbracelet/x/ansi"
)

// View implements tea.Model. It renders from state and caches only: the
// transcript hands over just the visible lines, each from its item's cache.
func (m Model) View() string {
	if m.quitting {
		return ""
	}
	st := m.common.Styles
	w := m.common.Width
	if !m.drawable() {
		return m.tooSmall()
	}

	body := m.chat.Visible()
	if len(m.chat.Items) == 0 {
		body = m.welcome()
	}
	for len(body) < m.chatHeight {
		body = append(body, "")
	}
	body = m.composeModals(body) // compose.go

	var b strings.Builder
	for _, l := range body {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range m.phaseLines() { // while a turn is in flight (phase.go, tui/phase)
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(st.Rule.Render(strings.Repeat("─", w)))
	b.WriteByte('\n')
	b.WriteString(m.input.View())
	b.WriteByte('\n')
	for _, l := range m.errorLine().Lines() {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.statusView())
	b.WriteByte('\n')
	b.WriteString(m.helpView())
	return b.String()
}

// helpView is the help line; while the top modal settles and takes no key
// (SPEC D7), it is dimmed: the pane itself says when its keys act.
func (m Model) helpView() string {
	e, ok := m.modals.topEntry()
	if !ok || e.settled {
		return m.renderHelp(m.help)
	}
	if _, every := m.settlePeriod(e); !every {
		return m.renderHelp(m.help)
	}
	st := m.common.Styles
	h := m.help
	h.Styles.ShortKey, h.Styles.ShortDesc = st.Help.ShortDesc, st.Help.ShortDesc
	h.Styles.FullKey, h.Styles.FullDesc = st.Help.FullDesc, st.Help.FullDesc
	return m.renderHelp(h)
}

// tooSmall is the screen below the minimum size (SPEC L6): a notice and,
// when a pane waits for the person, what it waits for. No key answers it
// while it is not drawn (settle.go).
func (m Model) tooSmall() string {
	w, h := m.common.Width, m.common.Height
	lines := []string{fmt.Sprintf("Terminal too small: %dx%d; vouch needs %dx%d.", w, h, MinWidth, MinHeight)}
	for i := len(m.modals.entries) - 1; i >= 0; i-- {
		if wt, ok := m.modals.entries[i].modal.(kit.Waiter); ok {
			lines = append(lines, "Waiting: "+wt.WaitingFor()+".", "Make the terminal larger to answer it; ctrl+c stops the run.")
			break
		}
	}
	return kit.Notice(m.common.Styles.TooSmall, lines, w, h)
}

// welcome is what an empty transcript shows.
func (m Model) welcome() []string {
	st := m.common.Styles
	if m.history == loading {
		return []string{"", st.Welcome.Render("  Loading the conversation…")}
	}
	k := m.common.Keys.Chat
	lines := []string{""}
	for _, s := range []string{
		"Type a message and press enter to send it.",
		fmt.Sprintf("%s picks a model, %s opens settings; %s shows every key.",
			k.ModelPicker.Help().Key, k.Settings.Help().Key, k.Help.Help().Key),
	} {
		for _, l := range strings.Split(ansi.Wordwrap(s, max(m.common.Width-2, 10), ""), "\n") {
			lines = append(lines, st.Welcome.Render("  "+l))
		}
	}
	return lines
}
