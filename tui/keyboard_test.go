package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tool"
	"vouch/tui/approval"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
	"vouch/tui/settings/serverskills"
	"vouch/tui/settings/skills"
)

// Who the keyboard belongs to (SPEC D7, keyboard.go): every kind of pane
// that grants, driven through Update on an injected clock with a corpus of
// sentences typed across its appearance at 5, 10 and 15 keys/s with the
// thinking pauses people make between words — each word after a pause
// beginning with one of the pane's keys — and by a slow typist at
// 2 keys/s. Nothing decides; the pane still waits; the text is in the
// input. Then tab, a quiet moment, and the pane's key answers. A person
// who was not typing answers with one key after a quiet moment, and a
// paste of "a⏎" is never a key.

// paneRig is one kind of pane that grants, ready to appear.
type paneRig struct {
	m Model
	// appear makes the pane appear: it arrives on its own, or the person
	// opens it with their own key.
	appear func(*testing.T, Model) Model
	// waiting reports that the pane is on top and has granted nothing.
	waiting func(Model) bool
	// answer presses the pane's answering key(s) and reports whether it
	// answered as asked.
	answer func(*testing.T, Model) bool
	// before is whether a sentence can start before the pane appears and
	// go into the chat input (false where the person opens the pane with a
	// key of theirs, which is where their keys then go).
	before bool
}

// paneRigs are the panes of SPEC D7: tool approval (after a model that
// asks the person a question just before its call), an MCP App's call in
// the same pane, app consent, inbox approval, classify, server-skill
// approval and skill install.
var paneRigs = map[string]func(*testing.T, *clock) paneRig{
	"tool approval": func(t *testing.T, clk *clock) paneRig {
		b := newFakeBackend()
		m := startModel(t, b, Options{Now: clk.Now})
		m, wait := sendText(t, m, "write a note")
		// The adversary's reply ends in a question, to make the person
		// type, just before its call.
		m, wait = deliver(t, m, b, wait, agent.TextDelta{Text: "Done thinking. Shall I go ahead? Answer yes or no, and add anything you like."})
		reply := make(chan agent.Decision, 4)
		return paneRig{m: m, before: true,
			appear: func(t *testing.T, m Model) Model {
				m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: writeCall},
					agent.ApprovalRequested{Call: writeCall, Tool: writeTool, Reply: reply})
				return m
			},
			waiting: func(m Model) bool {
				_, ok := m.modals.top().(approval.Pane)
				return ok && len(m.run.approvals.Pending) == 1 && len(reply) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyRune('a'))
				return cmd != nil && decided(t, cmd, reply).Allow
			},
		}
	},
	"app call": func(t *testing.T, clk *clock) paneRig {
		b, host := newFakeBackend(), newFakeApps()
		m := withApps(t, b, host, Options{Now: clk.Now})
		m, _ = sendText(t, m, "hi")
		reply := make(chan agent.Decision, 2)
		call := agent.ToolCall{CorrelationID: "app-1", Identity: "mcp:s:get-time", Arguments: `{}`}
		return paneRig{m: m, before: true,
			appear: func(t *testing.T, m Model) Model {
				m, _ = appEvent(t, m, host, AppApproval{Server: "basic", Request: agent.ApprovalRequested{Call: call,
					Tool: tool.Def{Identity: call.Identity}, Reason: "new tool", Reply: reply}})
				return m
			},
			waiting: func(m Model) bool {
				a, ok := m.modals.top().(approval.Pane)
				return ok && a.Request().App && len(reply) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyRune('a'))
				return cmd != nil && decided(t, cmd, reply).Allow
			},
		}
	},
	"app consent": func(t *testing.T, clk *clock) paneRig {
		b, host := newFakeBackend(), newFakeApps()
		m := withApps(t, b, host, Options{Now: clk.Now})
		reply := make(chan bool, 2)
		return paneRig{m: m, before: true,
			appear: func(t *testing.T, m Model) Model {
				m, _ = appEvent(t, m, host, AppConsent{Tool: "t", Server: "s", Link: "https://example.com", Reply: reply})
				return m
			},
			waiting: func(m Model) bool {
				_, ok := m.modals.top().(approval.Consent)
				return ok && len(reply) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				m, _ = update(m, tea.KeyMsg{Type: tea.KeyRight})
				_, cmd := update(m, keyEnter)
				awaitMsg[approval.ConsentAnsweredMsg](t, cmd)
				return <-reply
			},
		}
	},
	"inbox approval": func(t *testing.T, clk *clock) paneRig {
		f := newFakeWorkflows(t)
		sampleWorkflows(f)
		m := startBackend(t, f, Options{Now: clk.Now})
		m = press[approval.InboxMsg](t, m, keyCtrlE)
		return paneRig{m: m,
			appear: func(t *testing.T, m Model) Model {
				m, _ = update(m, keyEnter)
				return m
			},
			waiting: func(m Model) bool {
				a, ok := m.modals.top().(approval.Pane)
				_, _, answers, _ := f.recorded()
				return ok && a.Request().Background != nil && len(answers) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyRune('a'))
				awaitMsg[approval.InboxAnsweredMsg](t, cmd)
				_, _, answers, _ := f.recorded()
				return len(answers) == 1 && answers[0].decision.Allow
			},
		}
	},
	"classify": func(t *testing.T, clk *clock) paneRig {
		pb := newPolicyBackend()
		m := startPolicy(t, pb, clk)
		m, _, _ = askWith(t, m, pb.fakeBackend, csvRequest())
		clk.advance(time.Second)
		return paneRig{m: m,
			appear: func(t *testing.T, m Model) Model {
				m, _ = update(m, keyRune('c'))
				return m
			},
			waiting: func(m Model) bool {
				e, ok := m.modals.top().(ruleedit.Editor)
				saved, _ := pb.calls()
				return ok && !e.Form().Saving && len(saved) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyEnter)
				awaitMsg[ruleedit.SavedMsg](t, cmd)
				saved, _ := pb.calls()
				return len(saved) == 1
			},
		}
	},
	"server skill approval": func(t *testing.T, clk *clock) paneRig {
		fs := newFakeSkillServers()
		fs.previews[refundsURI] = unapprovedPreview()
		m := clocked(openSkillSettings(t, fs), clk)
		m = press[serverskills.ListedMsg](t, m, keyRune('s'))
		return paneRig{m: m,
			appear: func(t *testing.T, m Model) Model {
				return press[serverskills.PreviewMsg](t, m, keyEnter)
			},
			waiting: func(m Model) bool {
				a, ok := m.modals.top().(serverskills.Approval)
				return ok && a.Acting() == "" && len(fs.acts) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyRune('a'))
				awaitMsg[serverskills.ActedMsg](t, cmd)
				return len(fs.acts) == 1 && strings.HasPrefix(fs.acts[0], "approve ")
			},
		}
	},
	"skill install": func(t *testing.T, clk *clock) paneRig {
		b := newSkillsBackend()
		m := clocked(openSkills(t, b), clk)
		return paneRig{m: m,
			appear: func(t *testing.T, m Model) Model {
				return previewed(t, m, "~/pdf.zip")
			},
			waiting: func(m Model) bool {
				_, ok := m.modals.top().(skills.Install)
				_, in, _ := b.calls()
				return ok && len(in) == 0
			},
			answer: func(t *testing.T, m Model) bool {
				_, cmd := update(m, keyRune('i'))
				awaitMsg[skills.InstalledMsg](t, cmd)
				_, in, _ := b.calls()
				return len(in) == 1
			},
		}
	},
}

// keyOf is the key message a terminal sends for r.
func keyOf(r rune) tea.KeyMsg {
	switch r {
	case '\r':
		return keyEnter
	case ' ':
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return keyRune(r)
}

// typeAt types s on clk one key per gap, delivering the settle tick the
// program would get when one is armed and due.
func typeAt(m Model, clk *clock, gap time.Duration, s string) Model {
	for _, r := range s {
		m = pauseFor(m, clk, gap)
		m, _ = update(m, keyOf(r))
	}
	return m
}

// pauseFor lets d pass on clk, as a person who stops typing: the armed
// settle tick arrives when it is due.
func pauseFor(m Model, clk *clock, d time.Duration) Model {
	end := clk.Now().Add(d)
	if m.settle.armed && !m.settle.due.After(end) {
		clk.advance(m.settle.due.Sub(clk.Now()))
		m, _ = update(m, settleTickMsg{tag: m.settle.tag, at: clk.Now()})
	}
	clk.advance(end.Sub(clk.Now()))
	return m
}

// sentence is a corpus sentence: the words the person types, each after
// a pause beginning with one of the pane's keys (a, d, n, y, c, v, space,
// enter) — what today's panes take as allow, deny, note, yes, classify,
// view, page down and choose.
var sentence = []string{"actually ", "do ", "now ", "yes ", "can ", "very ", " more ", "\r", "then"}

// typed is what a sentence leaves in the input: enter is not text.
func typedSentence(words []string) string {
	return strings.ReplaceAll(strings.Join(words, ""), "\r", "")
}

func TestKeyboardCorpusDecidesNothing(t *testing.T) {
	rates := []int{5, 10, 15}
	pauses := []time.Duration{500 * time.Millisecond, 700 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 5 * time.Second}
	for name, rig := range paneRigs {
		for _, rate := range rates {
			for _, pause := range pauses {
				t.Run(fmt.Sprintf("%s/%dkeys/pause=%v", name, rate, pause), func(t *testing.T) {
					corpus(t, rig, time.Second/time.Duration(rate), pause)
				})
			}
		}
		t.Run(name+"/slow typist", func(t *testing.T) {
			corpus(t, rig, 500*time.Millisecond, 0)
		})
	}
}

// corpus types "ok " (where the pane can appear mid-sentence), makes the
// pane appear, types "thanks " at once and the sentence with pause before
// each word, and checks that nothing was decided; then tab, a quiet
// moment, and the pane's key answers.
func corpus(t *testing.T, newRig func(*testing.T, *clock) paneRig, gap, pause time.Duration) {
	clk := &clock{now: t0}
	r := newRig(t, clk)
	m := r.m
	want := ""
	if r.before {
		m = typeAt(m, clk, gap, "ok ")
		want = "ok "
	}
	m = r.appear(t, m)
	if !r.waiting(m) {
		t.Fatalf("the pane did not appear: top %T", m.modals.top())
	}
	m = typeAt(m, clk, gap, "thanks ")
	want += "thanks "
	for _, w := range sentence {
		m = pauseFor(m, clk, pause)
		m = typeAt(m, clk, gap, w)
		if !r.waiting(m) {
			t.Fatalf("a key of %q (after a %v pause) answered the pane", w, pause)
		}
	}
	want += typedSentence(sentence)
	m = pauseFor(m, clk, 5*time.Second)
	if !r.waiting(m) {
		t.Fatal("the pane answered after the sentence")
	}
	if got := m.input.Value(); got != want {
		t.Errorf("input = %q, want the whole sentence %q", got, want)
	}
	if e, _ := m.modals.topEntry(); !e.held {
		t.Error("the pane does not wait for tab")
	}
	if v := m.View(); !strings.Contains(v, kit.HeldNotice) && !strings.Contains(v, kit.SettleLead(kit.HeldGrantNotice)) {
		t.Errorf("the pane does not say where the keys go:\n%s", v)
	}
	m = pauseFor(m, clk, gap)
	m, _ = update(m, keyTab)
	m = pauseFor(m, clk, 1500*time.Millisecond)
	if !r.waiting(m) {
		t.Fatal("tab answered the pane")
	}
	if !r.answer(t, m) {
		t.Error("after tab and a quiet moment, the pane's key did not answer it")
	}
}

// settledForIdle makes rig's pane appear for a person who has not typed
// for 2.5 s and lets 1.5 s pass: the pane has the keyboard.
func settledForIdle(t *testing.T, rig func(*testing.T, *clock) paneRig) (paneRig, Model, *clock) {
	t.Helper()
	clk := &clock{now: t0}
	r := rig(t, clk)
	m := pauseFor(r.m, clk, 2500*time.Millisecond)
	m = r.appear(t, m)
	if e, _ := m.modals.topEntry(); e.held {
		t.Fatal("the pane of an idle person waits for tab")
	}
	return r, pauseFor(m, clk, 1500*time.Millisecond), clk
}

// TestKeyboardIdleAnswersWithOneKey: a person who was not typing for 2 s
// when the pane appeared answers it with one key after a quiet moment
// (SPEC D7: the common case stays one key).
func TestKeyboardIdleAnswersWithOneKey(t *testing.T) {
	for name, rig := range paneRigs {
		t.Run(name, func(t *testing.T) {
			r, m, _ := settledForIdle(t, rig)
			if !r.answer(t, m) {
				t.Error("one key after a quiet moment did not answer")
			}
		})
	}
}

// TestKeyboardPasteIsNoKey: a bracketed paste of "a⏎" on a settled pane
// decides nothing and goes into the input; the pane then waits for tab
// (SPEC D7).
func TestKeyboardPasteIsNoKey(t *testing.T) {
	for name, rig := range paneRigs {
		t.Run(name, func(t *testing.T) {
			r, m, clk := settledForIdle(t, rig)
			m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a\r"), Paste: true})
			m = pauseFor(m, clk, 1500*time.Millisecond)
			if !r.waiting(m) || !held(m) {
				t.Fatalf("a paste answered the pane, or left it taking keys (held %v)", held(m))
			}
			if got := m.input.Value(); !strings.HasPrefix(got, "a") {
				t.Errorf("input = %q, want the pasted text", got)
			}
		})
	}
}

// TestKeyboardNotTheirKeyGivesBack: on a settled pane of an idle person,
// a printable key that is not one of the pane's goes into the message and
// gives it the keyboard: the next "a", after any pause, is text too.
func TestKeyboardNotTheirKeyGivesBack(t *testing.T) {
	clk := &clock{now: t0}
	r := paneRigs["tool approval"](t, clk)
	m := pauseFor(r.m, clk, 2500*time.Millisecond)
	m = r.appear(t, m)
	m = pauseFor(m, clk, 1500*time.Millisecond)
	m = typeAt(m, clk, 100*time.Millisecond, "ok")
	m = pauseFor(m, clk, 3*time.Second)
	m = typeAt(m, clk, 100*time.Millisecond, " and also more")
	if !r.waiting(m) {
		t.Fatal(`" and also more" after "ok" and a pause answered the pane`)
	}
	if got := m.input.Value(); got != "ok and also more" {
		t.Errorf("input = %q", got)
	}
}

// TestKeyboardFocusBackMidSentence: the person typed in another window
// while the pane appeared unseen; focus comes back and they go on with
// their sentence: nothing decides (SPEC D7).
func TestKeyboardFocusBackMidSentence(t *testing.T) {
	clk := &clock{now: t0}
	r := paneRigs["tool approval"](t, clk)
	m, _ := update(r.m, tea.BlurMsg{})
	m = pauseFor(m, clk, 2500*time.Millisecond)
	m = r.appear(t, m)
	m = pauseFor(m, clk, 10*time.Second) // settled long ago, unseen
	m, _ = update(m, tea.FocusMsg{})
	m = typeAt(m, clk, 100*time.Millisecond, "nd then")
	m = pauseFor(m, clk, 1500*time.Millisecond)
	m = typeAt(m, clk, 100*time.Millisecond, " actually do")
	if !r.waiting(m) {
		t.Fatal("typing on after focus came back answered the pane")
	}
	if got := m.input.Value(); got != "nd then actually do" {
		t.Errorf("input = %q", got)
	}
}

// TestKeyboardEnterKeepsTheMessage: enter in the message while a held pane
// waits neither sends nor answers; the text stays and the status line says
// an approval waits (SPEC D7).
func TestKeyboardEnterKeepsTheMessage(t *testing.T) {
	clk := &clock{now: t0}
	r := paneRigs["tool approval"](t, clk)
	m := typeAt(r.m, clk, 100*time.Millisecond, "ok")
	m = r.appear(t, m)
	m = typeAt(m, clk, 100*time.Millisecond, " sure\r")
	if !r.waiting(m) {
		t.Fatal("enter answered the pane")
	}
	if got := m.input.Value(); got != "ok sure" {
		t.Errorf("input = %q, want the message kept", got)
	}
	if v := m.View(); !strings.Contains(v, "An approval waits: tab answers it") {
		t.Errorf("the status line does not say an approval waits:\n%s", v)
	}
	if got := helpLine(m); !strings.Contains(got, "tab answer a pane") {
		t.Errorf("help line = %q, want what tab does", got)
	}
}
