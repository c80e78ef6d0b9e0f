package approval

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/policy"
	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
)

// Pane is the tool approval pane (SPEC D3, D4, L2): a modal that shows
// one call waiting for the person, rendered by vouch from the call itself,
// and answers it with allow once, deny, or deny with a note. When its
// builder hands it [Options.Classify], classify opens the rule editor on
// top, pre-filled from the call; saving a rule does not answer the call.
//
// It appears on its own, in the middle of whatever the person was doing,
// so it settles for its KeyGrace (at least the root's; SPEC D7): no key
// reaches it until the keyboard has been quiet that long, and the keys
// typed meanwhile go to the chat input (settle.go). Its focus starts on
// Deny: no stray enter can allow a call. When the rule editor above it
// closes, it settles again, so an enter meant for the editor cannot answer
// the call. While it settles, its keys are drawn dimmed.
// It never answers the run itself: it returns an [Action], and the
// root sends the decision from a Cmd, exactly once, and shows the next call
// in its queue.
type Pane struct {
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
	common                 kit.Common
	keys                   KeyMap
	grace                  time.Duration
	req                    Request
	describe               ToolDescriber                               // nil: the Backend cannot describe tools
	watch                  ToolWatcher                                 // nil: the pane is not told of changes
	classify               func(identity, args, seen string) kit.Modal // nil: the Backend cannot store rules; classify is off

	// pos and total are this call's place among the calls waiting now.
	pos, total int

	desc    ToolDescription
	descErr string
	looking bool // a DescribeTool call is in flight

	args   argsPreview
	unfold bool
	body   []argLine // laid out for the current width and unfold
	scroll int

	focus  Button
	noting bool
	note   textinput.Model

	// notice says what became of a rule saved from this pane; noticeErr
	// marks it as a failure.
	notice    string
	noticeErr bool
	// changed is set once the tool's definition changed while the pane
	// was open (SPEC D8).
	changed bool
	// settling is true while the root holds its keys back (settle.go),
	// and settle is what the pane says instead of its keys.
	settling bool
	settle   string
}

// Button is a button of the pane, left to right.
type Button int

// The pane's buttons.
const (
	ButtonDeny Button = iota // the default focus (SPEC D4)
	ButtonAllow
	ButtonNote
	buttonCount
)

// Action is what the pane asks of the root: send a decision for the call
// with this correlation ID, or stop the whole run.
type Action struct {
	Correlation string
	Decision    agent.Decision
	Stop        bool
	App         bool // the call is an MCP App view's (the root's apps.go)
}

// IsAction implements kit.Action.
func (Action) IsAction() {}

// Options are what a pane needs besides its call: the same for every pane
// the root or the inbox opens.
type Options struct {
	// Grace is the settle period (SPEC D7).
	Grace time.Duration
	// Describer, when not nil, is asked for the server's label, host and
	// claims.
	Describer ToolDescriber
	// Watcher, when not nil, tells an open pane that its tool's definition
	// changed; the pane then shows what the tool says now.
	Watcher ToolWatcher
	// Classify, when not nil, returns the rule editor for a call of the
	// tool identity with these arguments, pre-filled from them, the rule
	// to bind to seen, the digest of the definition the pane was asked
	// about (Request.Definition, SPEC D8); without it, classify is off and
	// the pane says so.
	Classify func(identity, args, seen string) kit.Modal
}

// noteLimit bounds a note, in characters.
const noteLimit = 500

// New returns the pane for req, shown as pos of total waiting, with the
// bindings keys.
func New(c kit.Common, keys KeyMap, req Request, pos, total int, o Options) Pane {
	st := c.Styles.Modal
	in := textinput.New()
	in.Prompt = "note › "
	in.Placeholder = "why, for the model (optional)"
	in.CharLimit = noteLimit
	in.PromptStyle = st.Prompt
	in.TextStyle = st.Item
	in.PlaceholderStyle = st.Detail
	a := Pane{
		common:   c,
		keys:     keys,
		grace:    o.Grace,
		req:      req,
		describe: o.Describer,
		watch:    o.Watcher,
		classify: o.Classify,
		pos:      pos,
		total:    total,
		args:     parseArgs(req.Call.Arguments),
		note:     in,
	}
	a.looking = a.describe != nil && !a.builtin()
	a.syncKeys()
	a.relayout()
	return a
}

// identity is the stable identity of the tool that will run: the one the
// agent resolved the wire name to (SPEC C1, C2).
func (a Pane) identity() string {
	if a.req.Tool.Identity != "" {
		return a.req.Tool.Identity
	}
	return a.req.Call.Identity
}

func (a Pane) builtin() bool { return strings.HasPrefix(a.identity(), "builtin:") }

// Init implements Modal: it asks the Backend about the tool, if it can.
func (a Pane) Init() tea.Cmd {
	if !a.looking {
		return nil
	}
	return describeTool(a.describe, a.identity())
}

// ChangedWhileOpenNotice is what a pane says when its tool's definition
// changed while it was open.
const ChangedWhileOpenNotice = "This tool changed while the pane was open: what it says now is shown; allowing asks again with what changed."

// watchCmd watches the tool's definition while the pane is open, when the
// Backend can tell and the definition is known.
func (a Pane) watchCmd() tea.Cmd {
	if a.watch == nil || a.desc.Digest == "" {
		return nil
	}
	return watchTool(a.watch, a.identity(), a.desc.Digest)
}

// ChangedWhileOpen reports whether the tool's definition changed while the
// pane was open.
func (a Pane) ChangedWhileOpen() bool { return a.changed }

// KeyGrace implements Modal. The pane appears on its own, so keys already
// in flight must not answer it (SPEC D4).
func (a Pane) KeyGrace() time.Duration { return a.grace }

// ShortHelp implements help.KeyMap.
func (a Pane) ShortHelp() []key.Binding { return a.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (a Pane) FullHelp() [][]key.Binding { return a.keys.FullHelp() }

// SetSize implements Modal. The arguments are laid out again only when the
// width changes; the height only decides how many lines show.
func (a Pane) SetSize(width, height int) kit.Modal {
	compact := a.compact()
	relayout := width != a.common.Width
	a.common = a.common.Sized(width, height)
	a.note.Width = max(a.innerWidth()-len(a.note.Prompt)-2, 10)
	if relayout || compact != a.compact() {
		a.relayout()
	}
	a.clampScroll()
	return a
}

// Update implements Modal.
func (a Pane) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case DescribedMsg:
		if msg.Identity != a.identity() || !a.looking {
			return a, nil, nil
		}
		a.looking = false
		if msg.Err != nil {
			a.descErr = kit.Sentence(msg.Err)
		} else {
			a.desc = msg.Desc
		}
		a.relayout()
		return a, nil, a.watchCmd()
	case ToolChangedMsg:
		if msg.Identity != a.identity() || msg.Digest != a.desc.Digest {
			return a, nil, nil // an older watch, or another pane's
		}
		if !msg.Changed {
			return a, nil, a.watchCmd() // nothing changed: watch on
		}
		// The tool changed while the pane was open (SPEC D8): show what it
		// says now; the run refuses an answer to the old definition and
		// asks again with what changed.
		a.changed = true
		if msg.Err != nil {
			a.descErr, a.desc = kit.Sentence(msg.Err), ToolDescription{}
		} else {
			a.desc, a.descErr = msg.Desc, ""
		}
		a.notice, a.noticeErr = ChangedWhileOpenNotice, true
		a.relayout()
		return a, nil, a.watchCmd()
	case ruleedit.SavedMsg:
		if msg.Rule.Identity == a.identity() {
			a.notice, a.noticeErr = ruleNotice(msg.Rule, msg.Err), msg.Err != nil
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
func (a Pane) updateKey(msg tea.KeyMsg) (kit.Modal, kit.Action, tea.Cmd) {
	k := a.keys
	switch {
	case key.Matches(msg, k.Stop) && a.req.Background != nil:
		return a, kit.CloseModal{}, nil
	case key.Matches(msg, k.Stop):
		return a, Action{Correlation: a.req.Call.CorrelationID, Stop: true, App: a.req.App}, nil
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
		return a, kit.OpenModal{Modal: a.classify(a.identity(), a.req.Call.Arguments, a.req.Definition)}, nil
	case key.Matches(msg, k.Choose):
		switch a.focus {
		case ButtonAllow:
			return a.decide(true, "")
		case ButtonNote:
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
func (a Pane) decide(allow bool, note string) (kit.Modal, kit.Action, tea.Cmd) {
	return a, Action{
		Correlation: a.req.Call.CorrelationID,
		Decision:    agent.Decision{Allow: allow, Note: note},
		App:         a.req.App,
	}, nil
}

// startNote opens the one-line note input.
func (a Pane) startNote() (kit.Modal, kit.Action, tea.Cmd) {
	a.noting = true
	a.focus = ButtonNote
	cmd := a.note.Focus()
	a.syncKeys()
	return a, nil, cmd
}

// syncKeys enables the bindings that act in the pane's state: while the
// person types a note, only sending it, going back and stopping the run.
func (a *Pane) syncKeys() {
	for _, b := range []*key.Binding{&a.keys.Allow, &a.keys.Deny, &a.keys.Note, &a.keys.View,
		&a.keys.Left, &a.keys.Right, &a.keys.Choose, &a.keys.Up, &a.keys.Down,
		&a.keys.PageUp, &a.keys.PageDown, &a.keys.Top, &a.keys.Bottom} {
		b.SetEnabled(!a.noting)
	}
	a.keys.Classify.SetEnabled(!a.noting && a.classify != nil)
	// A call from the inbox can wait: its key goes back to the inbox
	// without answering; a background run is not stopped from here.
	if a.req.Background != nil {
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

// AsksPerson implements kit.Asker: it appears on its own and grants
// (SPEC D7).
func (Pane) AsksPerson() {}

// WithSettling implements kit.SettleShower.
func (a Pane) WithSettling(notice string) kit.Modal {
	a.settling, a.settle = notice != "", notice
	return a
}

// WaitingFor implements kit.Waiter.
func (a Pane) WaitingFor() string {
	return "a tool call waits for your approval: " + safetext.Line(a.identity(), 60)
}

// ruleNotice is what the pane says about a rule saved from it.
func ruleNotice(r policy.Rule, err error) string {
	if err != nil {
		return kit.Sentence(err)
	}
	return fmt.Sprintf("Rule saved (%s, %s): it applies to new runs; this call still needs your answer.",
		r.Class, r.Effect)
}

// relayout lays the body out again for the current width and state.
func (a *Pane) relayout() {
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
func (a *Pane) clampScroll() {
	a.scroll = max(min(a.scroll, len(a.body)-a.bodyRows()), 0)
}

// WithTotal returns the pane counting total calls waiting now: another
// call of its run arrived while it was shown.
func (a Pane) WithTotal(total int) Pane {
	a.total = total
	return a
}

// Request is the call the pane shows.
func (a Pane) Request() Request { return a.req }

// Pos is the pane's place among the calls waiting now, Pos of Total.
func (a Pane) Pos() int { return a.pos }

// Total is how many calls wait now, this one included.
func (a Pane) Total() int { return a.total }

// Focus is the focused button.
func (a Pane) Focus() Button { return a.focus }

// Noting reports whether the person is typing a note.
func (a Pane) Noting() bool { return a.noting }

// Body is the text of the pane's scrolling lines, as laid out now.
func (a Pane) Body() []string {
	out := make([]string, len(a.body))
	for i, l := range a.body {
		out[i] = l.text
	}
	return out
}

// Scroll is the first body line shown.
func (a Pane) Scroll() int { return a.scroll }

// BodyRows is how many lines of the body show at once.
func (a Pane) BodyRows() int { return a.bodyRows() }

// Width is the pane's width in cells.
func (a Pane) Width() int { return a.common.Width }

// BoxWidth is the width of the pane's frame.
func (a Pane) BoxWidth() int { return a.boxWidth() }

// Keys is the pane's bindings as its state has set them.
func (a Pane) Keys() KeyMap { return a.keys }

// TakesKey implements kit.KeyTaker: while the person types a note every
// key and paste is the note's; otherwise the keys of the pane's bindings
// (SPEC D7). A paste is never a key.
func (a Pane) TakesKey(msg tea.KeyMsg) bool {
	if a.noting {
		return true
	}
	if msg.Paste {
		return false
	}
	k := a.keys
	for _, b := range []key.Binding{k.Allow, k.Deny, k.Note, k.Classify, k.View, k.Left, k.Right, k.Choose,
		k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Stop} {
		if b.Enabled() && key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// Settling reports whether the pane is drawn as settling (SPEC D7).
func (a Pane) Settling() bool { return a.settling }
