package approval

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// InboxList is the approvals inbox (SPEC H6, D4, L2): the tool calls of
// background runs — scheduled or profile runs — that wait for the person,
// oldest first, each with its run, profile and how long it has waited.
// Enter opens the call in the same approval pane as a chat call
// ([Pane]), with its grace period and its focus on Deny; the pane's
// answer goes back to that run through Inbox.AnswerApproval, from a Cmd,
// once (the root routes it: applyInboxApproval). The list reloads when
// the pane closes and whenever the count changes.
type InboxList struct {
	common     kit.Common
	keys       InboxKeyMap
	paneKeys   KeyMap
	elicitKeys ElicitKeyMap
	ib         Inbox
	opts       Options

	kit.Loads
	items kit.ListCursor[InboxItem]
}

// NewInbox returns the inbox over ib (nil: not available here); Init loads
// it (load 1). paneKeys, elicitKeys and o are what the panes it opens
// need, as for a chat call's approval and question.
func NewInbox(c kit.Common, keys InboxKeyMap, paneKeys KeyMap, elicitKeys ElicitKeyMap, ib Inbox, o Options) InboxList {
	in := InboxList{common: c, keys: keys, paneKeys: paneKeys, elicitKeys: elicitKeys, ib: ib, opts: o,
		Loads: kit.Loads{Seq: 1, Loading: ib != nil}}
	in.syncKeys()
	return in
}

// Init implements Modal.
func (in InboxList) Init() tea.Cmd {
	if in.ib == nil {
		return nil
	}
	return loadInbox(in.ib, in.Seq)
}

// KeyGrace implements Modal: it opens on the person's own key; the
// approval pane it opens has its own grace period.
func (in InboxList) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (in InboxList) ShortHelp() []key.Binding {
	k := in.keys
	return []key.Binding{k.Up, k.Down, k.Open, k.Refresh, k.Close}
}

// FullHelp implements help.KeyMap.
func (in InboxList) FullHelp() [][]key.Binding { return [][]key.Binding{in.ShortHelp()} }

func (in InboxList) boxWidth() int { return min(in.common.Width-4, 100) }

// SetSize implements Modal.
func (in InboxList) SetSize(width, height int) kit.Modal {
	in.common = in.common.Sized(width, height)
	return in
}

// Update implements Modal.
func (in InboxList) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	in, action, cmd := in.handle(msg)
	in.syncKeys()
	return in, action, cmd
}

func (in InboxList) handle(msg tea.Msg) (InboxList, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case InboxMsg:
		if in.Settle(msg.Seq, msg.Err) {
			in.items.Set(msg.Items, nil)
		}
		return in, nil, nil
	case InboxAnsweredMsg:
		verb := "Denied"
		if msg.Allow {
			verb = "Allowed once"
		}
		in.Report(msg.Err, fmt.Sprintf("%s: the call %s of run %s.", verb, safetext.Line(msg.Correlation, 24), safetext.Line(msg.RunID, 24)))
		return in.reload()
	case InboxInputMsg:
		in.Report(msg.Err, fmt.Sprintf("Answered the server (%s) for the call %s of run %s.", safetext.Line(msg.Said, 60),
			safetext.Line(msg.Correlation, 24), safetext.Line(msg.RunID, 24)))
		return in.reload()
	case InboxCountMsg:
		if msg.Err == nil && !msg.Closed && msg.Count != len(in.items.Items) {
			return in.reload()
		}
		return in, nil, nil
	case tea.KeyMsg:
		k := in.keys
		switch {
		case key.Matches(msg, k.Close):
			return in, kit.CloseModal{}, nil
		case key.Matches(msg, k.Up):
			in.items.Up()
		case key.Matches(msg, k.Down):
			in.items.Down()
		case key.Matches(msg, k.Refresh):
			in.Notice = ""
			return in.reload()
		case key.Matches(msg, k.Open):
			if it, ok := in.items.Selected(); ok {
				in.Notice = ""
				if it.Question != nil {
					return in, kit.OpenModal{Modal: in.questionFor(it)}, nil
				}
				return in, kit.OpenModal{Modal: in.approvalFor(it)}, nil
			}
		}
	}
	return in, nil, nil
}

// reload asks for the waiting calls again; the list stays on screen.
func (in InboxList) reload() (InboxList, kit.Action, tea.Cmd) {
	if in.ib == nil {
		return in, nil, nil
	}
	return in, nil, loadInbox(in.ib, in.Begin())
}

// Reveal implements kit.Revealer: the approval pane above closed.
func (in InboxList) Reveal() (kit.Modal, tea.Cmd) {
	in, _, cmd := in.reload()
	in.syncKeys()
	return in, cmd
}

// approvalFor is the approval pane for one waiting call. Its request has no
// reply channel: the background run is answered through the Inbox, and the
// request names the run (background) so the root routes the answer there.
func (in InboxList) approvalFor(it InboxItem) Pane {
	req := Request{
		Call: it.Call, Tool: it.Tool, Reason: it.Reason, Effect: it.Effect, Preview: it.Preview,
		Definition: it.Definition,
		Background: &Background{ID: it.RunID, Profile: it.Profile},
	}
	return New(in.common, in.paneKeys, req, 1, 1, in.opts)
}

// questionFor is the question pane for one waiting question: like the
// chat's, with no reply channel — the root sends its answer through the
// Inbox (applyElicit) — and the run named.
func (in InboxList) questionFor(it InboxItem) ElicitPane {
	req := ElicitRequest{Question: *it.Question, Background: &Background{ID: it.RunID, Profile: it.Profile}}
	return NewElicit(in.common, in.elicitKeys, req, in.opts.Grace)
}

// Items are the waiting calls the inbox lists.
func (in InboxList) Items() []InboxItem { return in.items.Items }

func (in *InboxList) syncKeys() {
	k := &in.keys
	k.Up.SetEnabled(len(in.items.Items) > 1)
	k.Down.SetEnabled(len(in.items.Items) > 1)
	k.Open.SetEnabled(len(in.items.Items) > 0)
	k.Refresh.SetEnabled(in.ib != nil)
}

// View implements Modal.
func (in InboxList) View() string {
	st := in.common.Styles.Modal
	inner := kit.InnerWidth(st, in.boxWidth())
	height := in.common.Height - st.Frame.GetVerticalFrameSize()
	title := "Approvals inbox"
	if in.Loaded {
		title += fmt.Sprintf(" (%d waiting)", len(in.items.Items))
	}
	lines := []string{st.Title.Render(title)}
	lines = append(lines, kit.WrapLines(st.Detail, "Calls of scheduled and profile runs that need your approval, and servers' questions "+
		"(input). Each run waits until its deadline.", inner, 2)...)
	lines = append(lines, "")
	foot := in.Said(st, inner)
	switch {
	case in.ib == nil:
		lines = append(lines, st.Detail.Render("The approvals inbox is not available here."))
	case foot != nil:
	case in.Loading && !in.Loaded:
		foot = []string{st.Detail.Render("Loading…")}
	}
	if in.Loaded && len(in.items.Items) == 0 {
		lines = append(lines, st.Detail.Render("Nothing waits for you."))
	}
	var body []string
	focus := 0
	for i, it := range in.items.Items {
		if i == in.items.Cursor {
			focus = len(body)
		}
		body = append(body, in.rows(it, i == in.items.Cursor, inner)...)
	}
	room := max(height-len(lines)-len(foot), 1)
	if len(body) > room {
		first := max(0, min(focus-room/3, len(body)-room))
		body = body[first : first+room]
	}
	lines = append(lines, body...)
	for len(lines) < height-len(foot) {
		lines = append(lines, "")
	}
	return kit.ModalBox(st, inner, height, append(lines, foot...))
}

// rows renders one waiting call on two lines: the tool and the run; then
// the task, how long it has waited and its deadline.
func (in InboxList) rows(it InboxItem, focused bool, w int) []string {
	st := in.common.Styles.Modal
	now := in.common.Now()
	cursor := "  "
	if focused {
		cursor = st.Prompt.Render("› ")
	}
	identity := it.Tool.Identity
	if identity == "" {
		identity = it.Call.Identity
	}
	if q := it.Question; q != nil {
		identity = "input · " + q.Server + " asks during " + q.Tool
	}
	tool := safetext.Line(identity, w/2)
	if focused {
		tool = st.Selected.Render(tool)
	} else {
		tool = st.Item.Render(tool)
	}
	who := safetext.Line(it.Kind, 12) + " run " + safetext.Line(it.RunID, 16)
	if it.Profile != "" {
		who += " of " + safetext.Line(it.Profile, 24)
	}
	wait := "waiting " + sinceShort(now, it.Requested)
	if !it.Deadline.IsZero() {
		wait += " · stops waiting " + kit.Until(now, it.Deadline)
	}
	second := "    " + kit.FirstLine(it.Task, 0)
	return []string{
		cursor + tool + st.Detail.Render(kit.Cut("  "+who, w-2-ansi.StringWidth(tool))),
		st.Detail.Render(kit.Cut(second+" — "+wait, w)),
	}
}

// sinceShort is how long before now t was, without "ago": "5m", "just now".
func sinceShort(now, t time.Time) string {
	s := kit.Ago(now, t)
	if len(s) > 4 && s[len(s)-4:] == " ago" {
		return s[:len(s)-4]
	}
	return s
}
