package serverskills

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// Approval is the approval preview of one server skill (SPEC I3-I6):
// vouch's rendering of the skill's current entry — origin, the server's
// words, every file with size and digest, the set digest, what changed
// since the last approval, the allowed-tools request that grants nothing,
// scanner findings, the approval history — and where the skill stands in
// the profiles that enable it. Its keys follow the state: approve an
// unapproved or held skill, keep the pinned version or accept the update
// after a change, roll back to the approval before the one in effect.
// Approve and accept send back the set digest shown, so a set that changed
// since is refused and nothing is approved that the person did not see.
// A skill with high-severity findings not yet reviewed
// (Preview.MustAccept) is not approved by a or u: a second confirmation
// names their IDs, settles afresh (SPEC D7), and y approves with exactly
// those IDs accepted; esc goes back to the preview (SPEC G8, I5).
type Approval struct {
	common kit.Common
	keys   ApprovalKeyMap
	skills Backend
	server settings.ServerView
	skill  Skill

	seq     int
	loading bool
	loaded  bool
	preview Preview
	err     string
	acting  string // the action in flight, "" when none
	// notice and actErr are what the last action did, one sentence.
	notice, actErr string
	scroll         int
	// settling is true while approving waits for the keyboard to be
	// quiet after the preview appeared (settle.go, SPEC D7).
	settling bool
	settle   string
	// confirming is true while the second confirmation of the
	// high-severity findings is on screen (SPEC G8).
	confirming bool
}

// newApproval returns the preview of skill; Init asks for it.
func newApproval(c kit.Common, keys ApprovalKeyMap, ss Backend, server settings.ServerView, skill Skill) Approval {
	a := Approval{common: c, keys: keys, skills: ss, server: server, skill: skill, seq: 1, loading: true}
	a.syncKeys()
	return a
}

// Init implements Modal.
func (a Approval) Init() tea.Cmd {
	return previewServerSkill(a.skills, a.server.ID, a.skill.URI, a.seq)
}

// KeyGrace implements Modal: it opens on the person's own key, and no
// action is enabled before the preview is on screen. Approve, accept and
// roll back grant: they wait for the root's settle period after each
// preview appeared (kit.Granter, SPEC D7).
func (a Approval) KeyGrace() time.Duration { return 0 }

// Grants implements kit.Granter.
func (a Approval) Grants(msg tea.KeyMsg) bool {
	k := a.keys
	return key.Matches(msg, k.Approve) || key.Matches(msg, k.Accept) || key.Matches(msg, k.Rollback) || key.Matches(msg, k.Confirm)
}

// Granting implements kit.Granter: the preview on screen, or the second
// confirmation of its high-severity findings, which settles afresh when
// it appears (SPEC D7, G8).
func (a Approval) Granting() string {
	if !a.loaded || a.loading {
		return ""
	}
	if a.confirming {
		return fmt.Sprintf("accept %d %s", a.seq, a.preview.SetDigest)
	}
	return fmt.Sprintf("%d %s", a.seq, a.preview.SetDigest)
}

// WithSettling implements kit.SettleShower.
func (a Approval) WithSettling(notice string) kit.Modal {
	a.settling, a.settle = notice != "", notice
	return a
}

// ShortHelp implements help.KeyMap.
func (a Approval) ShortHelp() []key.Binding {
	k := a.keys
	return []key.Binding{k.Approve, k.Accept, k.Confirm, k.Keep, k.Rollback, k.Down, k.Close}
}

// FullHelp implements help.KeyMap.
func (a Approval) FullHelp() [][]key.Binding {
	k := a.keys
	return [][]key.Binding{{k.Up, k.Down, k.Close}, {k.Approve, k.Accept, k.Confirm, k.Keep, k.Rollback}}
}

// SetSize implements Modal.
func (a Approval) SetSize(width, height int) kit.Modal {
	a.common = a.common.Sized(width, height)
	return a
}

// Update implements Modal.
func (a Approval) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	a, action, cmd := a.handle(msg)
	a.syncKeys()
	return a, action, cmd
}

func (a Approval) handle(msg tea.Msg) (Approval, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case PreviewMsg:
		if msg.seq != a.seq {
			return a, nil, nil
		}
		a.loading, a.loaded, a.err, a.confirming = false, true, "", false
		if msg.err != nil {
			a.err, a.preview = kit.Sentence(msg.err), Preview{}
			return a, nil, nil
		}
		a.preview, a.skill = msg.preview, msg.preview.Skill
		return a, nil, nil
	case ActedMsg:
		if msg.seq != a.seq || a.acting == "" {
			return a, nil, nil
		}
		a.acting = ""
		a.actErr, a.notice = kit.OutcomeText(msg.err, msg.view.Sentence)
		// Show what the record says now.
		a.seq++
		a.loading = true
		return a, nil, previewServerSkill(a.skills, a.server.ID, a.skill.URI, a.seq)
	case tea.KeyMsg:
		return a.key(msg)
	}
	return a, nil, nil
}

func (a Approval) key(msg tea.KeyMsg) (Approval, kit.Action, tea.Cmd) {
	k := a.keys
	act := func(verb string, accept []string, n int) (Approval, kit.Action, tea.Cmd) {
		a.acting, a.notice, a.actErr, a.confirming = verb, "", "", false
		return a, nil, actOnServerSkill(a.skills, verb, a.server.ID, a.skill.URI, a.preview.SetDigest, accept, n, a.seq)
	}
	switch {
	case key.Matches(msg, k.Close) && a.confirming:
		a.confirming = false
	case key.Matches(msg, k.Close):
		return a, kit.CloseModal{}, nil
	case key.Matches(msg, k.Up):
		a.scroll = max(a.scroll-1, 0)
	case key.Matches(msg, k.Down):
		a.scroll++
	case key.Matches(msg, k.Approve), key.Matches(msg, k.Accept):
		if len(a.preview.MustAccept) > 0 {
			// High-severity findings: a second, explicit confirmation
			// naming their IDs (SPEC G8).
			a.confirming, a.notice, a.actErr = true, "", ""
			return a, nil, nil
		}
		return act("approve", nil, 0)
	case key.Matches(msg, k.Confirm):
		return act("approve", slices.Clone(a.preview.MustAccept), 0)
	case key.Matches(msg, k.Keep):
		return act("keep", nil, 0)
	case key.Matches(msg, k.Rollback):
		return act("rollback", nil, a.rollbackTarget())
	}
	return a, nil, nil
}

// rollbackTarget is the approval before the one in effect, 0 when none.
func (a Approval) rollbackTarget() int {
	n := a.preview.Skill.Approval - 1
	if n < 1 || !slices.Contains(a.preview.Approvals, n) {
		return 0
	}
	return n
}

// syncKeys enables the actions the skill's state allows, once the preview
// is on screen and no action is in flight.
func (a *Approval) syncKeys() {
	k := &a.keys
	ready := a.loaded && !a.loading && a.acting == "" && a.err == ""
	s := a.preview.Skill.State
	bound := a.preview.SetDigest != ""
	choosing := ready && !a.confirming
	k.Approve.SetEnabled(choosing && bound && (s == StateUnapproved || s == StateReview))
	k.Accept.SetEnabled(choosing && bound && (s == StateChanged || s == StatePinned))
	k.Keep.SetEnabled(choosing && s == StateChanged)
	k.Rollback.SetEnabled(choosing && a.rollbackTarget() > 0)
	k.Confirm.SetEnabled(ready && bound && a.confirming && len(a.preview.MustAccept) > 0)
	if n := a.rollbackTarget(); n > 0 {
		k.Rollback.SetHelp(k.Rollback.Help().Key, fmt.Sprintf("roll back to %d", n))
	}
}

func (a Approval) boxWidth() int { return min(a.common.Width-4, 76) }

// View implements Modal.
func (a Approval) View() string {
	st := a.common.Styles.Modal
	w := kit.InnerWidth(st, a.boxWidth())
	height := max(a.common.Height-4, 8)
	head := []string{
		st.Title.Render(safetext.Line("Server skill › "+a.skill.Name, w)),
		st.Detail.Render(safetext.Line("from "+a.server.Name+" · "+string(a.skill.State), w)),
	}
	var foot []string
	switch {
	case a.acting != "":
		foot = append(foot, st.Detail.Render(safetext.Line(a.acting+"…", w)))
	case a.err != "" || a.actErr != "":
		foot = append(foot, kit.WrapLines(st.Error, "✗ "+a.err+a.actErr, w, 3)...)
	case a.notice != "":
		foot = append(foot, kit.WrapLines(st.StatusOK, a.notice, w, 3)...)
	case a.confirming:
		lead := kit.SettleLead(a.settle)
		foot = append(foot, kit.WrapLines(st.StatusWarn, fmt.Sprintf("%s%s: %s. y accepts these findings by ID and approves; esc goes back to the preview.",
			lead, kit.Plural(len(a.preview.MustAccept), "high-severity finding"), safetext.Line(strings.Join(a.preview.MustAccept, ", "), 400)), w, 4)...)
	case a.loaded && a.preview.SetDigest != "":
		lead := kit.SettleLead(a.settle)
		foot = append(foot, kit.WrapLines(st.Detail, lead+"Approving binds to exactly these files (set "+short(a.preview.SetDigest)+"); it grants no tool or permission.", w, 2)...)
	}
	var body []string
	switch {
	case a.loading && !a.loaded:
		body = append(body, st.Detail.Render("Preparing the preview… (no skill file is read)"))
	case a.err != "":
		body = append(body, st.Detail.Render("Nothing to preview."))
	default:
		for _, l := range a.preview.Lines {
			body = append(body, kit.WrapLines(st.Item, l, w, 3)...)
		}
		if len(a.preview.Precedence) > 0 {
			body = append(body, "", st.Label.Render("Precedence (local policy skills outrank server skills)"))
			for _, l := range a.preview.Precedence {
				body = append(body, kit.WrapLines(st.Detail, "  "+l, w, 2)...)
			}
		}
	}
	rows := max(height-len(head)-len(foot)-1, 1)
	scroll := min(a.scroll, max(len(body)-rows, 0))
	shown := body[scroll:min(scroll+rows, len(body))]
	lines := append(append([]string{}, head...), "")
	lines = append(lines, shown...)
	for len(lines) < height-len(foot) {
		lines = append(lines, "")
	}
	if more := len(body) - scroll - len(shown); more > 0 && len(lines) > len(head)+1 {
		lines[len(lines)-1] = st.Detail.Render("↓ " + kit.Plural(more, "more line"))
	}
	return kit.ModalBox(st, w, height, append(lines, foot...))
}

// short is the first 16 hex digits of a digest.
func short(digest string) string {
	if len(digest) > 16 {
		return digest[:16]
	}
	return digest
}

// Keys returns the preview's bindings as they stand, each enabled or not
// by the skill's state.
func (a Approval) Keys() ApprovalKeyMap { return a.keys }

// Acting names the action sent and not yet answered ("" when none).
func (a Approval) Acting() string { return a.acting }
