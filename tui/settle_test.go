package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/policy"
	"vouch/tui/approval"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
	"vouch/tui/settings/serverskills"
	"vouch/tui/settings/skills"
)

// The settle period (SPEC D7): every test here drives Update with keys on
// an injected clock, one key per humanGap as a person types at 10 keys/s,
// and nothing sleeps.

// humanGap is the time between two keys of a person typing at 10 keys/s.
const humanGap = 100 * time.Millisecond

// afterQuiet returns m with its clock moved past the settle period, as if
// the person paused to read what is on screen (SPEC D7).
func afterQuiet(m Model) Model {
	now := m.common.Now().Add(m.opts.KeyGrace)
	m.common.Now = func() time.Time { return now }
	return m
}

// tabToPane moves the keyboard from the message to the pane with tab and
// waits out the settle period that then starts, as a person who decided to
// answer does (SPEC D7).
func tabToPane(m Model, clk *clock) Model {
	clk.advance(humanGap)
	m, _ = update(m, keyTab)
	clk.advance(DefaultKeyGrace)
	return m
}

// tabQuiet is tabToPane for a model on a fixed clock (afterQuiet).
func tabQuiet(m Model) Model {
	m, _ = update(m, keyTab)
	return afterQuiet(m)
}

// held reports whether the top modal waits for tab (SPEC D7).
func held(m Model) bool {
	e, ok := m.modals.topEntry()
	return ok && e.held
}

// clocked returns m on clk's time, for models started on the fixed t0.
func clocked(m Model, clk *clock) Model {
	m.common.Now = clk.Now
	return m
}

// typeAtPace types s one key per humanGap on clk; it returns the model and
// the Cmds the keys returned (none is run).
func typeAtPace(m Model, clk *clock, s string) (Model, []tea.Cmd) {
	var cmds []tea.Cmd
	for _, r := range s {
		clk.advance(humanGap)
		var cmd tea.Cmd
		m, cmd = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		if cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return m, cmds
}

// TestSettleTypeAheadDecidesNothing is the type-ahead bypass (SPEC D7):
// the person sends "write a note" and types the next sentence while the
// reply streams; the pane appears mid-word. No key of the sentence — the
// "a" of "great", the "n" of "then", the spaces — answers the pane or
// opens its note, however long after the pane's appearance it comes (the
// "a" of "thanks" comes at about 0.7 s, "then tell me"'s last keys past
// 0.95 s); the input holds the whole sentence and the pane still waits.
// The keyboard is the message's: a quiet "a" goes there too; after tab
// and the settle period, a allows.
func TestSettleTypeAheadDecidesNothing(t *testing.T) {
	for _, tt := range []struct{ before, after string }{
		{"gr", "eat thanks"},
		{"th", "en tell me"},
		{"", "great thanks then tell me and"},
	} {
		t.Run(tt.before+"|"+tt.after, func(t *testing.T) {
			clk := &clock{now: t0}
			b := newFakeBackend()
			m := startModel(t, b, Options{Now: clk.Now})
			m, wait := sendText(t, m, "write a note")
			m, _ = typeAtPace(m, clk, tt.before)
			reply := make(chan agent.Decision, 4)
			m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: writeCall},
				agent.ApprovalRequested{Call: writeCall, Tool: writeTool, Reply: reply})
			shown := clk.Now()
			topApproval(t, m)

			m, cmds := typeAtPace(m, clk, tt.after)
			if len(cmds) != 0 {
				t.Errorf("keys while the pane settles returned %d Cmds, want none (a decision is sent from a Cmd)", len(cmds))
			}
			if len(m.run.approvals.Pending) != 1 || len(reply) != 0 {
				t.Fatalf("a key of the sentence answered the pane: queue %d, reply %d", len(m.run.approvals.Pending), len(reply))
			}
			a := topApproval(t, m)
			if a.Noting() || a.Focus() != approval.ButtonDeny {
				t.Errorf("a key of the sentence acted on the pane: noting %v, focus %v", a.Noting(), a.Focus())
			}
			if got, want := m.input.Value(), tt.before+tt.after; got != want {
				t.Errorf("input = %q, want the whole sentence %q", got, want)
			}
			if view := m.View(); !strings.Contains(view, kit.HeldNotice) {
				t.Errorf("the pane does not say where the keys go:\n%s", view)
			}
			// The last key came long after the pane appeared, and it
			// still did not decide; 100 ms later neither does "a".
			if since := clk.Now().Sub(shown); since < 900*time.Millisecond {
				t.Fatalf("the sentence ended %v after the pane appeared; the case needs ≥ 0.9 s", since)
			}
			clk.advance(humanGap)
			if m, _ = update(m, keyRune('a')); len(m.run.approvals.Pending) != 1 {
				t.Fatal(`"a" 100 ms after the last key of the sentence allowed`)
			}

			clk.advance(5 * time.Second)
			if m, _ = update(m, keyRune('a')); len(m.run.approvals.Pending) != 1 {
				t.Fatal(`"a" after a 5 s pause allowed, though the keyboard was the message's`)
			}
			m = tabToPane(m, clk)
			m, cmd := update(m, keyRune('a'))
			if got := decided(t, cmd, reply); got != (agent.Decision{Allow: true}) {
				t.Errorf("decision after tab and the quiet = %+v, want allow", got)
			}
			if got, want := m.input.Value(), tt.before+tt.after+"aa"; got != want {
				t.Errorf("input after the decision = %q, want %q", got, want)
			}
		})
	}
}

// TestSettleTick: the pane draws its keys as active once a tick after the
// settle period arrives; a stale tick (an older tag) changes nothing, and
// a key while it settles restarts the period (SPEC D7; STYLE habit 14).
func TestSettleTick(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, _, _ = ask(t, m, b, readCall)
	if !topApproval(t, m).Settling() || !m.settle.armed {
		t.Fatalf("a new pane: settling %v, tick armed %v; want both", topApproval(t, m).Settling(), m.settle.armed)
	}
	tag := m.settle.tag
	clk.advance(DefaultKeyGrace / 2)
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyLeft}) // restarts the period
	clk.advance(DefaultKeyGrace / 2)
	m, cmd := update(m, settleTickMsg{tag: tag, at: clk.Now()})
	if !topApproval(t, m).Settling() {
		t.Fatal("a tick at the first deadline settled the pane, though a key restarted the period")
	}
	if cmd == nil || !m.settle.armed || m.settle.tag == tag {
		t.Fatal("the tick did not arm the next one")
	}
	if m, _ = update(m, settleTickMsg{tag: tag, at: clk.Now().Add(time.Hour)}); !topApproval(t, m).Settling() {
		t.Error("a stale tick settled the pane")
	}
	clk.advance(DefaultKeyGrace / 2)
	m, _ = update(m, settleTickMsg{tag: m.settle.tag, at: clk.Now()})
	if topApproval(t, m).Settling() || strings.Contains(m.View(), kit.SettlingNotice) {
		t.Errorf("the pane still settles after its tick:\n%s", m.View())
	}
}

// TestSettleCtrlCStops: ctrl+c while the pane settles stops the run, as
// it always does (SPEC A5, D7).
func TestSettleCtrlCStops(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, _, replies := ask(t, m, b, readCall)
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if !m.modals.empty() || m.run.phase != phaseCancelling {
		t.Fatalf("ctrl+c while settling: %d modals, phase %v; want the run stopped", len(m.modals.entries), m.run.phase)
	}
	noDecision(t, replies[0])
}

// TestSettleAppConsent: a sentence typed across an app's consent pane —
// with the arrow and enter that would agree — agrees to nothing; the text
// is in the input (SPEC D7, J4).
func TestSettleAppConsent(t *testing.T) {
	b := newFakeBackend()
	apps := newFakeApps()
	clk := &clock{now: t0}
	m := withApps(t, b, apps, Options{Now: clk.Now})
	m, _ = typeAtPace(m, clk, "ok")
	reply := make(chan bool, 2)
	m, _ = appEvent(t, m, apps, AppConsent{Tool: "t", Server: "s", Link: "https://example.com", Reply: reply})
	m, _ = typeAtPace(m, clk, " sure thing")
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRight}, keyEnter} {
		clk.advance(humanGap)
		m, _ = update(m, k)
	}
	if _, ok := m.modals.top().(approval.Consent); !ok || len(reply) != 0 {
		t.Fatalf("the consent was answered while it settled: top %T, reply %d", m.modals.top(), len(reply))
	}
	if got := m.input.Value(); got != "ok sure thing" {
		t.Errorf("input = %q, want the sentence", got)
	}
	if !strings.Contains(m.View(), kit.HeldNotice) {
		t.Errorf("the consent does not say where the keys go:\n%s", m.View())
	}
	clk.advance(DefaultKeyGrace)
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRight})
	if m, _ = update(m, keyEnter); len(reply) != 0 {
		t.Fatal("a quiet right and enter agreed while the keyboard was the message's")
	}
	m = tabToPane(m, clk)
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRight})
	_, cmd := update(m, keyEnter)
	awaitMsg[approval.ConsentAnsweredMsg](t, cmd)
	if got := <-reply; !got {
		t.Error("a deliberate right and enter did not agree")
	}
}

// TestSettleServerSkillApproval: an "a" typed just after the preview of a
// server skill appears approves nothing; after a quiet moment it does
// (SPEC D7, I3).
func TestSettleServerSkillApproval(t *testing.T) {
	fs := newFakeSkillServers()
	fs.previews[refundsURI] = unapprovedPreview()
	clk := &clock{now: t0}
	m := clocked(openSkillSettings(t, fs), clk)
	m = press[serverskills.ListedMsg](t, m, keyRune('s'))
	m = press[serverskills.PreviewMsg](t, m, keyEnter)
	m, cmds := typeAtPace(m, clk, "a")
	if len(cmds) != 0 || topModal[serverskills.Approval](t, m).Acting() != "" {
		t.Fatal(`"a" 100 ms after the preview appeared approved the skill`)
	}
	if v := m.View(); !strings.Contains(v, kit.SettleLead(kit.HeldGrantNotice)) {
		t.Errorf("the preview does not say its keys wait for tab:\n%s", v)
	}
	clk.advance(DefaultKeyGrace)
	if m, cmds = typeAtPace(m, clk, "a"); len(cmds) != 0 {
		t.Fatal(`a quiet "a" after the early one approved without tab`)
	}
	m = tabToPane(m, clk)
	m, cmd := update(m, keyRune('a'))
	awaitMsg[serverskills.ActedMsg](t, cmd)
	if len(fs.acts) != 1 || !strings.HasPrefix(fs.acts[0], "approve ") {
		t.Errorf("acts = %v, want one approve", fs.acts)
	}
	_ = m
}

// TestSettleSkillInstall: path, enter and an "i" typed at once install
// nothing: the preview has to be on screen for the settle period first
// (SPEC D7, G4).
func TestSettleSkillInstall(t *testing.T) {
	b := newSkillsBackend()
	clk := &clock{now: t0}
	m := clocked(openSkills(t, b), clk)
	m = previewed(t, m, "~/pdf.zip")
	m, cmds := typeAtPace(m, clk, "i")
	if _, in, _ := b.calls(); len(cmds) != 0 || len(in) != 0 {
		t.Fatalf(`"i" 100 ms after the preview appeared installed: %d Cmds, installs %+v`, len(cmds), in)
	}
	clk.advance(DefaultKeyGrace)
	if m, cmds = typeAtPace(m, clk, "i"); len(cmds) != 0 {
		t.Fatal(`a quiet "i" after the early one installed without tab`)
	}
	m = tabToPane(m, clk)
	_, cmd := update(m, keyRune('i'))
	awaitMsg[skills.InstalledMsg](t, cmd)
	if _, in, _ := b.calls(); len(in) != 1 {
		t.Errorf("installs after the quiet = %+v, want one", in)
	}
}

// TestSettleInboxApproval: enter on an inbox item, then "great thanks"
// typed at once, answers nothing; the background run still waits (SPEC
// D7, H6).
func TestSettleInboxApproval(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, clk := openInboxAt(t, f)
	m, _ = update(m, keyEnter)
	topModal[approval.Pane](t, m)
	m, _ = typeAtPace(m, clk, "great thanks")
	if _, _, answers, _ := f.recorded(); len(answers) != 0 {
		t.Fatalf("type-ahead answered an inbox call: %+v", answers)
	}
	topModal[approval.Pane](t, m)
	if got := m.input.Value(); got != "great thanks" {
		t.Errorf("input = %q, want the sentence", got)
	}
	clk.advance(DefaultKeyGrace)
	if m, _ = update(m, keyRune('a')); !held(m) {
		t.Fatal("after the type-ahead the inbox call took a quiet key")
	}
	m = tabToPane(m, clk)
	_, cmd := update(m, keyRune('a'))
	awaitMsg[approval.InboxAnsweredMsg](t, cmd)
	if _, _, answers, _ := f.recorded(); len(answers) != 1 || !answers[0].decision.Allow {
		t.Errorf("answers = %+v, want one allow", answers)
	}
}

// TestSettleClassify: the rule editor opened with c settles too: a
// sentence ending in enter, typed as it appears, saves no rule (SPEC D1,
// D7).
func TestSettleClassify(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	m, _, replies := askWith(t, m, pb.fakeBackend, csvRequest())
	clk.advance(time.Second)
	m, _ = update(m, keyRune('c'))
	topModal[ruleedit.Editor](t, m)
	m, _ = typeAtPace(m, clk, "allow it")
	clk.advance(humanGap)
	m, _ = update(m, keyEnter)
	if saved, _ := pb.calls(); len(saved) != 0 {
		t.Fatalf("type-ahead saved a rule: %+v", saved)
	}
	if f := topModal[ruleedit.Editor](t, m).Form(); f.Saving || f.Class != policy.Ask {
		t.Errorf("type-ahead acted on the editor: saving %v, class %s", f.Saving, f.Class)
	}
	if !strings.Contains(m.View(), kit.HeldNotice) {
		t.Errorf("the editor does not say where the keys go:\n%s", m.View())
	}
	noDecision(t, replies[0])
}
