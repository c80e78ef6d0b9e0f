package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/chat"
	"vouch/tui/kit"
)

// errNoDone is reported when a run's channel closes without a Done event,
// which the Backend contract forbids.
var errNoDone = errors.New("the run stopped without saying why; try again")

// updateSend handles the result of Backend.Send: on success the run's
// events start flowing through one streamReader.
func (m Model) updateSend(msg sendMsg) (Model, tea.Cmd) {
	if msg.run != m.run.id {
		if msg.events != nil { // a run nobody waits for: drain it
			return m, (&chat.StreamReader{Run: msg.run, Events: msg.events, Interval: chat.CoalesceInterval, After: m.after}).Wait()
		}
		return m, nil
	}
	if msg.err != nil {
		if m.run.cancel != nil {
			m.run.cancel()
		}
		if m.run.user != nil {
			m.run.user.Note = "not sent"
			m.run.user.Touch()
		}
		m = m.recoverUnsent() // the text back in the input (retry.go)
		m.run = runState{id: m.run.id}
		m.status = statusState{err: kit.Sentence(msg.err)}
		return m, nil
	}
	if m.run.phase == phaseStarting {
		m.run.phase = phaseStreaming
	}
	r := &chat.StreamReader{Run: msg.run, Events: msg.events, Interval: chat.CoalesceInterval, After: m.after}
	return m, r.Wait()
}

// updateStream applies one coalesced delivery of run events and re-arms the
// reader until the run is done.
func (m Model) updateStream(msg chat.StreamMsg) (Model, tea.Cmd) {
	if msg.Run != m.run.id {
		if msg.Final() {
			return m, nil
		}
		return m, msg.Reader.Wait()
	}
	m.countDeltas(msg.Deltas, m.common.Now())
	var cmds []tea.Cmd
	for _, ev := range msg.Events {
		m.run.turn.step = m.run.turn.step.Follow(ev) // the phase line (tui/phase)
		m = m.noteDecision(ev)                       // allowed by your rule (decisions.go)
		if req, ok := ev.(agent.ApprovalRequested); ok {
			var cmd tea.Cmd
			m, cmd = m.requestApproval(msg.Run, req)
			cmds = append(cmds, cmd)
			continue
		}
		if handled, next, cmd := m.elicitEvent(msg.Run, ev); handled { // update_elicit.go
			m = next
			cmds = append(cmds, cmd)
			continue
		}
		m = m.applyEvent(ev)
	}
	if !msg.Final() {
		return m, tea.Batch(append(cmds, msg.Reader.Wait())...)
	}
	done, ok := lastDone(msg.Events)
	if !ok {
		done = agent.Done{Reason: agent.StopError, Err: errNoDone}
	}
	// The run no longer reads answers: its waiting calls go (SPEC D4).
	m, drop := m.dropElicits() // update_elicit.go
	m, cmd := m.dropApprovals(drop, "not answered: the run ended")
	return m.finishRun(done), tea.Batch(append(cmds, cmd)...)
}

func lastDone(events []agent.Event) (agent.Done, bool) {
	if n := len(events); n > 0 {
		d, ok := events[n-1].(agent.Done)
		return d, ok
	}
	return agent.Done{}, false
}

// applyEvent folds one run event into the transcript and status.
func (m Model) applyEvent(ev agent.Event) Model {
	r := &m.run
	switch ev := ev.(type) {
	case agent.TextDelta:
		if r.reasoning != nil {
			r.reasoning.Freeze()
			r.reasoning = nil
		}
		if r.answer == nil {
			r.answer = m.chat.Add(&chat.Item{Kind: chat.ItemAssistant, Streaming: true})
		}
		r.answer.Text += ev.Text
		r.answer.Touch()
	case agent.ReasoningDelta:
		if r.reasoning == nil {
			r.reasoning = m.chat.Add(&chat.Item{Kind: chat.ItemReasoning, Streaming: true})
		}
		r.reasoning.Text += ev.Text
		r.reasoning.Touch()
	case agent.ToolCallStarted:
		m.endTurnText()
		r.tools = append(r.tools, m.chat.Add(&chat.Item{Kind: chat.ItemTool, Call: ev.Call, Streaming: true}))
	case agent.ToolCallFinished:
		m.endTurnText()
		it := m.chat.FindTool(ev.Call)
		if it == nil {
			it = m.chat.Add(&chat.Item{Kind: chat.ItemTool, Call: ev.Call})
		}
		it.Result, it.IsError, it.HasResult = ev.Result, ev.IsError, true
		it.Touch()
		it.Freeze()
	case agent.ToolProgress:
		// The latest progress of a running call, under its line (SPEC
		// B11); progress of a call that already ended is stale.
		if it := m.chat.FindTool(agent.ToolCall{CorrelationID: ev.CorrelationID}); it != nil && !it.HasResult && ev.CorrelationID != "" {
			it.Progress = progressText(ev)
			it.Touch()
		}
	case agent.RunStarted:
		if ev.ContextWindow > 0 {
			m.window = ev.ContextWindow
		}
		m.toolPlan, m.hasToolPlan, m.planWindow = ev.Tools, true, ev.ContextWindow
	case agent.Usage:
		m.usage, m.hasUsage = ev, true
		if ev.ContextWindow > 0 {
			m.window = ev.ContextWindow
		}
		if ev.PromptCut > 0 { // said at once, and again when the run ends
			r.promptCut = ev.PromptCut
			m.status.notice = promptCutNotice(ev.PromptCut)
		} else if note := usageNotes(ev); note != "" { // usage_notes.go
			m.status.notice = note
		}
	}
	return m
}

// endTurnText freezes the text of a model turn that ended in tool calls.
func (m *Model) endTurnText() {
	for _, it := range []**chat.Item{&m.run.answer, &m.run.reasoning} {
		if *it != nil {
			(*it).Freeze()
			*it = nil
		}
	}
}

// countDeltas feeds the live generation rate shown while streaming: n
// deltas (about one token each) arrived at now.
func (m *Model) countDeltas(n int, now time.Time) {
	if n == 0 {
		return
	}
	if m.run.deltas == 0 {
		m.run.firstDelta = now
	}
	m.run.deltas += n
	m.run.lastDelta = now
}

// finishRun ends the run. What a cancelled or failed run left unfinished is
// marked interrupted (SPEC A5); the error is one sentence in the status line
// and the transcript stays as it is. A conversation too long for the
// context window also gets the key that starts a new one as a hint.
func (m Model) finishRun(done agent.Done) Model {
	cut := done.Reason == agent.StopCancelled || done.Reason == agent.StopError
	if a := m.run.answer; done.CutOff && a != nil {
		a.CutOff = true // the reply stopped at its length limit (SPEC A7)
		a.Touch()
	}
	promptCut := m.run.promptCut
	if u := m.run.user; u != nil && done.Reason != agent.StopDone && m.run.answer == nil && m.run.reasoning == nil && len(m.run.tools) == 0 {
		// Refused before inference, or no reply at all: the message stays,
		// but the next request does not carry it (issue 17).
		u.Note = chat.UnansweredNote
		u.Touch()
	}
	open := append([]*chat.Item{m.run.answer, m.run.reasoning}, m.run.tools...)
	for _, it := range open {
		if it == nil || !it.Streaming {
			continue
		}
		if cut {
			it.Interrupted = true
		}
		it.Freeze()
	}
	m = m.recoverFrom(done) // retry, and the text back in the input (retry.go)
	if m.run.cancel != nil {
		m.run.cancel()
	}
	m.run = runState{id: m.run.id}
	switch {
	case done.Err != nil:
		m.status = statusState{err: kit.Sentence(done.Err), hint: m.overflowHint(done.Err)}
	case done.Reason == agent.StopCancelled:
		m.status = statusState{notice: "Cancelled."}
	case done.Reason == agent.StopLimit:
		m.status = statusState{err: "The run stopped at a limit."}
	default:
		var notes []string
		if promptCut > 0 {
			notes = append(notes, promptCutNotice(promptCut))
		}
		if done.CutOff {
			notes = append(notes, cutOffNotice)
		}
		if note := usageNotes(m.usage); note != "" && m.hasUsage { // the run's last Usage: a run that ends done had one
			notes = append(notes, note)
		}
		m.status = statusState{notice: strings.Join(notes, " ")}
	}
	return m
}

// cutOffNotice is the status line after a reply cut off at its length
// limit: what happened and the key that continues it (SPEC A7).
const cutOffNotice = "The reply was cut off at its length limit; alt+c asks the model to continue."

// promptCutNotice is Usage.Notice's sentence about a prompt the server
// cut to n tokens on its own (SPEC A7, F4).
func promptCutNotice(n int) string {
	return kit.Sentence(errors.New(agent.Usage{PromptCut: n}.Notice()))
}

// progressText words a call's progress: "2/3 indexing", "40 %" or the
// message alone; the server's text is neutralized when rendered.
func progressText(ev agent.ToolProgress) string {
	var s string
	switch {
	case ev.Total > 0:
		s = fmt.Sprintf("%g/%g", ev.Progress, ev.Total)
	case ev.Progress > 0:
		s = fmt.Sprintf("%g", ev.Progress)
	}
	if ev.Message != "" {
		s = strings.TrimSpace(s + " " + ev.Message)
	}
	return s
}
