package tui

import (
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
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
			return m, (&streamReader{run: msg.run, events: msg.events, interval: coalesceInterval, after: m.after}).wait()
		}
		return m, nil
	}
	if msg.err != nil {
		if m.run.cancel != nil {
			m.run.cancel()
		}
		if m.run.user != nil {
			m.run.user.note = "not sent"
			m.run.user.touch()
		}
		m.run = runState{id: m.run.id}
		m.status = statusState{err: kit.Sentence(msg.err)}
		return m, nil
	}
	if m.run.phase == phaseStarting {
		m.run.phase = phaseStreaming
	}
	r := &streamReader{run: msg.run, events: msg.events, interval: coalesceInterval, after: m.after}
	return m, r.wait()
}

// updateStream applies one coalesced delivery of run events and re-arms the
// reader until the run is done.
func (m Model) updateStream(msg streamMsg) (Model, tea.Cmd) {
	if msg.run != m.run.id {
		if msg.final() {
			return m, nil
		}
		return m, msg.reader.wait()
	}
	m.countDeltas(msg.deltas, m.common.Now())
	var cmds []tea.Cmd
	for _, ev := range msg.events {
		if req, ok := ev.(agent.ApprovalRequested); ok {
			var cmd tea.Cmd
			m, cmd = m.requestApproval(msg.run, req)
			cmds = append(cmds, cmd)
			continue
		}
		m = m.applyEvent(ev)
	}
	if !msg.final() {
		return m, tea.Batch(append(cmds, msg.reader.wait())...)
	}
	done, ok := lastDone(msg.events)
	if !ok {
		done = agent.Done{Reason: agent.StopError, Err: errNoDone}
	}
	// The run no longer reads answers: its waiting calls go (SPEC D4).
	m, cmd := m.dropApprovals(nil, "not answered: the run ended")
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
			r.reasoning.freeze()
			r.reasoning = nil
		}
		if r.answer == nil {
			r.answer = m.chat.add(&item{kind: itemAssistant, streaming: true})
		}
		r.answer.text += ev.Text
		r.answer.touch()
	case agent.ReasoningDelta:
		if r.reasoning == nil {
			r.reasoning = m.chat.add(&item{kind: itemReasoning, streaming: true})
		}
		r.reasoning.text += ev.Text
		r.reasoning.touch()
	case agent.ToolCallStarted:
		m.endTurnText()
		r.tools = append(r.tools, m.chat.add(&item{kind: itemTool, call: ev.Call, streaming: true}))
	case agent.ToolCallFinished:
		m.endTurnText()
		it := m.chat.findTool(ev.Call)
		if it == nil {
			it = m.chat.add(&item{kind: itemTool, call: ev.Call})
		}
		it.result, it.isError, it.hasResult = ev.Result, ev.IsError, true
		it.touch()
		it.freeze()
	case agent.RunStarted:
		if ev.ContextWindow > 0 {
			m.window = ev.ContextWindow
		}
		m.toolPlan, m.hasToolPlan = ev.Tools, true
	case agent.Usage:
		m.usage, m.hasUsage = ev, true
		if ev.ContextWindow > 0 {
			m.window = ev.ContextWindow
		}
	}
	return m
}

// endTurnText freezes the text of a model turn that ended in tool calls.
func (m *Model) endTurnText() {
	for _, it := range []**item{&m.run.answer, &m.run.reasoning} {
		if *it != nil {
			(*it).freeze()
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
	open := append([]*item{m.run.answer, m.run.reasoning}, m.run.tools...)
	for _, it := range open {
		if it == nil || !it.streaming {
			continue
		}
		if cut {
			it.interrupted = true
		}
		it.freeze()
	}
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
		m.status = statusState{}
	}
	return m
}
