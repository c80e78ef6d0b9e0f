package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/kit"
)

// approval is the tool approval pane (SPEC D3, D4, L2): a modal that shows
// one call waiting for the person, rendered by vouch from the call itself,
// and answers it with allow once, deny, or deny with a note. When the
// Backend implements PolicyEditor, classify opens the rule editor on top,
// pre-filled from the call; saving a rule does not answer the call.
//
// It appears on its own, in the middle of whatever the person was doing,
// so it settles for its KeyGrace (at least the root's; SPEC D7): no key
// reaches it until the keyboard has been quiet that long, and the keys
// typed meanwhile go to the chat input (settle.go). Its focus starts on
// Deny: no stray enter can allow a call. When the rule editor above it
// closes, it settles again, so an enter meant for the editor cannot answer
// the call. While it settles, its keys are drawn dimmed.
// It never answers the run itself: it returns an approvalAction, and the
// root sends the decision from a Cmd, exactly once, and shows the next call
// in its queue (approval_queue.go).
type approval struct {
	// headerLen is how many lines the header took at the last relayout,
	// so that scrolling does not draw the header just to count it; every
	// change to what the header shows goes through relayout.
	headerLen int
	// hdr is the header drawn at the last relayout, for a width of hdrW
	// and a queue position of hdrPos of hdrTotal; View reuses it while
	// those are unchanged (everything else it shows changes only through
	// relayout).
	hdr                    []string
	hdrW, hdrPos, hdrTotal int
	common                 Common
	keys                   ApprovalKeyMap
	grace                  time.Duration
	req                    approvalRequest
	describe               ToolDescriber // nil: the Backend cannot describe tools
	policy                 PolicyEditor  // nil: the Backend cannot store rules; classify is off

	// pos and total are this call's place among the calls waiting now.
	pos, total int

	desc    ToolDescription
	descErr string
	looking bool // a DescribeTool call is in flight

	args   argsPreview
	unfold bool
	body   []argLine // laid out for the current width and unfold
	scroll int

	focus  approvalButton
	noting bool
	note   textinput.Model

	// notice says what became of a rule saved from this pane; noticeErr
	// marks it as a failure.
	notice    string
	noticeErr bool
	// settling is true while the root holds its keys back (settle.go).
	settling bool
}

// approvalButton is a button of the pane, left to right.
type approvalButton int

const (
	buttonDeny approvalButton = iota // the default focus (SPEC D4)
	buttonAllow
	buttonNote
	buttonCount
)

// approvalAction is what the pane asks of the root: send a decision for
// the call with this correlation ID, or stop the whole run.
type approvalAction struct {
	correlation string
	decision    agent.Decision
	stop        bool
	app         bool // the call is an MCP App view's (apps.go)
}

func (approvalAction) IsAction() {}

// noteLimit bounds a note, in characters.
const noteLimit = 500

// newApproval returns the pane for req, shown as pos of total waiting.
// d, when not nil, is asked for the server's label, host and claims; pe,
// when not nil, stores the rules that classify saves.
func newApproval(c Common, req approvalRequest, pos, total int, grace time.Duration, d ToolDescriber, pe PolicyEditor) approval {
	st := c.Styles.Modal
	in := textinput.New()
	in.Prompt = "note › "
	in.Placeholder = "why, for the model (optional)"
	in.CharLimit = noteLimit
	in.PromptStyle = st.Prompt
	in.TextStyle = st.Item
	in.PlaceholderStyle = st.Detail
	a := approval{
		common:   c,
		keys:     c.Keys.Approval,
		grace:    grace,
		req:      req,
		describe: d,
		policy:   pe,
		pos:      pos,
		total:    total,
		args:     parseArgs(req.call.Arguments),
		note:     in,
	}
	a.looking = d != nil && !a.builtin()
	a.syncKeys()
	a.relayout()
	return a
}

// identity is the stable identity of the tool that will run: the one the
// agent resolved the wire name to (SPEC C1, C2).
func (a approval) identity() string {
	if a.req.tool.Identity != "" {
		return a.req.tool.Identity
	}
	return a.req.call.Identity
}

func (a approval) builtin() bool { return strings.HasPrefix(a.identity(), "builtin:") }

// Init implements Modal: it asks the Backend about the tool, if it can.
func (a approval) Init() tea.Cmd {
	if !a.looking {
		return nil
	}
	return describeTool(a.describe, a.identity())
}

// KeyGrace implements Modal. The pane appears on its own, so keys already
// in flight must not answer it (SPEC D4).
func (a approval) KeyGrace() time.Duration { return a.grace }

// ShortHelp implements help.KeyMap.
func (a approval) ShortHelp() []key.Binding { return a.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (a approval) FullHelp() [][]key.Binding { return a.keys.FullHelp() }

// SetSize implements Modal. The arguments are laid out again only when the
// width changes; the height only decides how many lines show.
func (a approval) SetSize(width, height int) kit.Modal {
	compact := a.compact()
	relayout := width != a.common.Width
	a.common = a.common.sized(width, height)
	a.note.Width = max(a.innerWidth()-len(a.note.Prompt)-2, 10)
	if relayout || compact != a.compact() {
		a.relayout()
	}
	a.clampScroll()
	return a
}

// Update implements Modal.
func (a approval) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case toolDescribedMsg:
		if msg.identity != a.identity() || !a.looking {
			return a, nil, nil
		}
		a.looking = false
		if msg.err != nil {
			a.descErr = kit.Sentence(msg.err)
		} else {
			a.desc = msg.desc
		}
		a.relayout()
		return a, nil, nil
	case ruleSavedMsg:
		if msg.rule.Identity == a.identity() {
			a.notice, a.noticeErr = ruleNotice(msg), msg.err != nil
		}
		return a, nil, nil
	case tea.KeyMsg:
		return a.updateKey(msg)
	}
	if a.noting {
		var cmd tea.Cmd
		a.note, cmd = a.note.Update(msg)
		return a, nil, cmd
	}
	return a, nil, nil
}

// updateKey handles a key once the pane has settled.
func (a approval) updateKey(msg tea.KeyMsg) (kit.Modal, kit.Action, tea.Cmd) {
	k := a.keys
	switch {
	case key.Matches(msg, k.Stop) && a.req.background != nil:
		return a, kit.CloseModal{}, nil
	case key.Matches(msg, k.Stop):
		return a, approvalAction{correlation: a.req.call.CorrelationID, stop: true, app: a.req.app}, nil
	case key.Matches(msg, k.SendNote):
		return a.decide(false, strings.TrimSpace(a.note.Value()))
	case key.Matches(msg, k.Back):
		a.noting = false
		a.note.Blur()
		a.syncKeys()
		return a, nil, nil
	case a.noting:
		var cmd tea.Cmd
		a.note, cmd = a.note.Update(msg)
		return a, nil, cmd
	case key.Matches(msg, k.Allow):
		return a.decide(true, "")
	case key.Matches(msg, k.Deny):
		return a.decide(false, "")
	case key.Matches(msg, k.Note):
		return a.startNote()
	case key.Matches(msg, k.Classify):
		d := draftFromCall(a.identity(), a.req.call.Arguments)
		return a, kit.OpenModal{Modal: newRuleEditor(a.common, a.policy, d, a.grace)}, nil
	case key.Matches(msg, k.Choose):
		switch a.focus {
		case buttonAllow:
			return a.decide(true, "")
		case buttonNote:
			return a.startNote()
		default:
			return a.decide(false, "")
		}
	case key.Matches(msg, k.Left):
		a.focus = (a.focus + buttonCount - 1) % buttonCount
	case key.Matches(msg, k.Right):
		a.focus = (a.focus + 1) % buttonCount
	case key.Matches(msg, k.View):
		a.unfold = !a.unfold
		a.relayout()
	default:
		a.scroll, _ = kit.ScrollKey(msg, kit.ScrollKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom}, a.scroll, a.bodyRows(), len(a.body))
	}
	a.clampScroll()
	a.syncKeys()
	return a, nil, nil
}

// decide returns the action that answers the call.
func (a approval) decide(allow bool, note string) (kit.Modal, kit.Action, tea.Cmd) {
	return a, approvalAction{
		correlation: a.req.call.CorrelationID,
		decision:    agent.Decision{Allow: allow, Note: note},
		app:         a.req.app,
	}, nil
}

// startNote opens the one-line note input.
func (a approval) startNote() (kit.Modal, kit.Action, tea.Cmd) {
	a.noting = true
	a.focus = buttonNote
	cmd := a.note.Focus()
	a.syncKeys()
	return a, nil, cmd
}

// syncKeys enables the bindings that act in the pane's state: while the
// person types a note, only sending it, going back and stopping the run.
func (a *approval) syncKeys() {
	for _, b := range []*key.Binding{&a.keys.Allow, &a.keys.Deny, &a.keys.Note, &a.keys.View,
		&a.keys.Left, &a.keys.Right, &a.keys.Choose, &a.keys.Up, &a.keys.Down,
		&a.keys.PageUp, &a.keys.PageDown, &a.keys.Top, &a.keys.Bottom} {
		b.SetEnabled(!a.noting)
	}
	a.keys.Classify.SetEnabled(!a.noting && a.policy != nil)
	// A call from the inbox can wait: its key goes back to the inbox
	// without answering; a background run is not stopped from here.
	if a.req.background != nil {
		a.keys.Stop.SetHelp(a.keys.Stop.Help().Key, "back to inbox")
	}
	a.keys.SendNote.SetEnabled(a.noting)
	a.keys.Back.SetEnabled(a.noting)
	a.keys.Choose.SetHelp("enter", a.focus.label())
	if a.unfold {
		a.keys.View.SetHelp(a.keys.View.Help().Key, "fold again")
	} else {
		a.keys.View.SetHelp(a.keys.View.Help().Key, "view all")
	}
}

// WithSettling implements kit.SettleShower.
func (a approval) WithSettling(settling bool) kit.Modal {
	a.settling = settling
	return a
}

// WaitingFor implements kit.Waiter.
func (a approval) WaitingFor() string {
	return "a tool call waits for your approval: " + safetext.Line(a.identity(), 60)
}

// ruleNotice is what the pane says about a rule saved from it.
func ruleNotice(msg ruleSavedMsg) string {
	if msg.err != nil {
		return kit.Sentence(msg.err)
	}
	return fmt.Sprintf("Rule saved (%s, %s): it applies to new runs; this call still needs your answer.",
		msg.rule.Class, msg.rule.Effect)
}

// relayout lays the body out again for the current width and state.
func (a *approval) relayout() {
	a.hdr = a.header(a.innerWidth())
	a.hdrW, a.hdrPos, a.hdrTotal = a.innerWidth(), a.pos, a.total
	a.headerLen = len(a.hdr)
	a.body = a.bodyLines(a.innerWidth())
	if a.compact() && !a.unfold {
		a.body = compactBody(a.body)
	}
	a.syncKeys()
	a.clampScroll()
}

// clampScroll keeps the scroll position inside the body.
func (a *approval) clampScroll() {
	a.scroll = max(min(a.scroll, len(a.body)-a.bodyRows()), 0)
}
