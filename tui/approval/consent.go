package approval

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// Consent asks the person whether an app view may open a link or add a
// message to the conversation (SPEC J4). It appears on its own, so it
// settles for its grace (SPEC D7, the root's settle rule): keys typed
// meanwhile go to the chat input. Focus starts on Refuse: only a
// deliberate move and enter agrees. Any way out of it answers: esc
// refuses.
type Consent struct {
	kit.Choice // the acting button agrees
	common     kit.Common
	grace      time.Duration
	ev         ConsentRequest
	// settling is true while the root holds its keys back, and settle is
	// what the pane says instead of its keys.
	settling bool
	settle   string
}

// ConsentRequest is a view asking to open a link (Link) or to add a
// message to the conversation (Message). Reply receives the answer once.
// It has the fields of the root's AppConsent event, which converts to it.
type ConsentRequest struct {
	Tool, Server string
	Link         string
	Message      string
	Reply        chan<- bool
}

// ConsentAnsweredMsg reports that the answer was delivered (Sent) or that
// the view no longer waited; Text is the message to put in the input when
// the person agreed to one.
type ConsentAnsweredMsg struct {
	Sent bool
	Text string
	Link string // the link the person agreed to open, copied too
}

// NewConsent returns the consent pane for ev, answered with keys, which
// settles for grace.
func NewConsent(c kit.Common, keys kit.ConfirmKeyMap, ev ConsentRequest, grace time.Duration) Consent {
	return Consent{Choice: kit.Choice{Keys: keys}, common: c, grace: grace, ev: ev}
}

// KeyGrace implements Modal: the pane appears on its own (SPEC D4, D7).
func (c Consent) KeyGrace() time.Duration { return c.grace }

// AsksPerson implements kit.Asker: it appears on its own and grants
// (SPEC D7).
func (Consent) AsksPerson() {}

// WithSettling implements kit.SettleShower.
func (c Consent) WithSettling(notice string) kit.Modal {
	c.settling, c.settle = notice != "", notice
	return c
}

// WaitingFor implements kit.Waiter.
func (c Consent) WaitingFor() string {
	return "an app of " + safetext.Line(c.ev.Tool, 40) + " waits for your consent"
}

// SetSize implements Modal.
func (c Consent) SetSize(width, height int) kit.Modal {
	c.common = c.common.Sized(width, height)
	return c
}

// Update implements Modal.
func (c Consent) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return c, nil, nil
	}
	answered, yes := c.Key(k)
	if !answered {
		return c, nil, nil
	}
	var text, link string
	switch {
	case yes && c.ev.Link != "":
		link = c.ev.Link
	case yes:
		text = safetext.Neutralize(c.ev.Message)
	}
	return c, kit.CloseModal{}, answerConsent(c.ev.Reply, yes, text, link)
}

// answerConsent sends the answer once, never blocking.
func answerConsent(reply chan<- bool, yes bool, text, link string) tea.Cmd {
	return func() tea.Msg {
		select {
		case reply <- yes:
			return ConsentAnsweredMsg{Sent: true, Text: text, Link: link}
		default:
			return ConsentAnsweredMsg{}
		}
	}
}

// View implements Modal.
func (c Consent) View() string {
	st := c.common.Styles.Modal
	w := kit.InnerWidth(st, min(c.common.Width-4, 72))
	who := safetext.Line(c.ev.Tool, 60) + " (server " + safetext.Line(c.ev.Server, 60) + ")"
	title, body, yes := "An app wants to open a link", "", "Open"
	if c.ev.Link != "" {
		body = "The app of " + who + " asks to open:\n" + safetext.Line(c.ev.Link, 0)
	} else {
		title, yes = "An app wants to add a message", "Add to input"
		body = "The app of " + who + " asks to add this message to the conversation; it goes into your input, to edit or send:\n" +
			safetext.Neutralize(c.ev.Message)
	}
	lines := []string{st.Title.Render(title), ""}
	lines = append(lines, kit.WrapLines(st.Item, body, w, 12)...)
	gap := ""
	if c.settling {
		gap = st.Detail.Render(ansi.Truncate(c.settle, w, "…"))
	}
	lines = append(lines, gap, c.Buttons(st, "Refuse", yes))
	return kit.ModalBox(st, w, 0, lines)
}
