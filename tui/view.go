package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// View implements tea.Model. It renders from state and caches only: the
// transcript hands over just the visible lines, each from its item's cache.
func (m Model) View() string {
	if m.quitting {
		return ""
	}
	st := m.common.Styles
	w, h := m.common.Width, m.common.Height
	if w < MinWidth || h < MinHeight {
		msg := fmt.Sprintf("Terminal too small: %dx%d; vouch needs %dx%d.", w, h, MinWidth, MinHeight)
		return st.TooSmall.Render(ansi.Truncate(msg, max(w, 1), "…"))
	}

	body := m.chat.visible()
	if len(m.chat.items) == 0 {
		body = m.welcome()
	}
	for len(body) < m.chatHeight {
		body = append(body, "")
	}
	for _, e := range m.modals.entries {
		body = overlay(body, e.modal.View(), w)
	}

	var b strings.Builder
	for _, l := range body {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(st.Rule.Render(strings.Repeat("─", w)))
	b.WriteByte('\n')
	b.WriteString(m.input.View())
	b.WriteByte('\n')
	for _, l := range m.errorLines() {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.statusView())
	b.WriteByte('\n')
	b.WriteString(m.help.View(m.helpKeys()))
	return b.String()
}

// welcome is what an empty transcript shows.
func (m Model) welcome() []string {
	st := m.common.Styles
	if m.history == loading {
		return []string{"", st.Welcome.Render("  Loading the conversation…")}
	}
	k := m.common.Keys.Chat
	return []string{
		"",
		st.Welcome.Render("  Type a message and press enter to send it."),
		st.Welcome.Render(fmt.Sprintf("  %s picks a model, %s opens settings; %s shows every key.",
			k.ModelPicker.Help().Key, k.Settings.Help().Key, k.Help.Help().Key)),
	}
}
