package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vouch/agent"
	"vouch/mcpclient"
	"vouch/policy"
	"vouch/safetext"
	"vouch/store"
	"vouch/tool"
)

// Approver answers the approval requests of a headless run: nil means no
// person is present, and the run ends with ApprovalNeeded at the first
// call that asks.
type Approver func(req agent.ApprovalRequested) (agent.Decision, error)

// RunOutput is where a headless run's progress goes (cmd/vouch: the
// answer to stdout, tool activity to stderr).
type RunOutput interface {
	// Show shows one event as it arrives: text, a part's end, a tool
	// call's start, progress and end, a turn's usage (whose Notice says
	// the server cut the prompt or the reply was cut off). An error (output that cannot be written) ends
	// the run, recorded failed.
	Show(ev agent.Event) error
	// End is called once the run has ended; an error fails the command
	// but leaves the run's recorded outcome alone.
	End() error
}

// QuestionAnswerer is a RunOutput that can put a tool's question to the
// person (SPEC B12): `vouch run --approve-tty` asks on the terminal. An
// error means nobody can be asked; the question is then declined at once.
type QuestionAnswerer interface {
	AnswerQuestion(q tool.Question) (tool.Answer, error)
}

// NoTerminal is why a headless run declines a question it cannot ask.
const NoTerminal = "this run has no terminal to ask; run it with --approve-tty to answer a server's questions"

// HeadlessResult is what a headless run ends with: its ID in history,
// its outcome, the answer, and what stopped it; as JSON it is `vouch run
// --json`.
type HeadlessResult struct {
	RunID           string `json:"run_id,omitempty"`
	Profile         string `json:"profile,omitempty"`
	ProfileRevision int    `json:"profile_revision,omitempty"`
	Outcome         string `json:"outcome"`
	Answer          string `json:"answer"`
	Error           string `json:"error,omitempty"`
	// CorrelationID is the call that needed approval (exit 4).
	CorrelationID string `json:"correlation_id,omitempty"`
	// CutOff is true when the answer stopped at its length limit (SPEC
	// A7): it is not a whole answer. Always present.
	CutOff bool `json:"cut_off"`
	// Usage is the last model turn's token use and rate, the run's
	// totals, and what the run left out; nil (absent) when no turn
	// reported one and the run left nothing out.
	Usage *RunUsage `json:"usage,omitempty"`
}

// What the counts of a RunUsage cover (its Scope, and its Run's).
const (
	// UsageLastTurn: the counts are the last model turn's.
	UsageLastTurn = "last_turn"
	// UsageWholeRun: the counts add up every model turn of the run.
	UsageWholeRun = "whole_run"
)

// RunUsage is a run's token use as `vouch run --json` prints it: the last
// model turn's counts (Scope says so) — the server's, or vouch's own,
// estimated — the window, and the generation rate — from the server's
// timings, else generated tokens over the generation's span; absent when
// the span was too short to measure —, then the totals of the whole run
// (Run) and what the run left out (LeftOut, nil when nothing).
type RunUsage struct {
	Scope            string     `json:"scope"`
	PromptTokens     int        `json:"prompt_tokens"`
	CompletionTokens int        `json:"completion_tokens"`
	ContextWindow    int        `json:"context_window"`
	TokensPerSecond  float64    `json:"tokens_per_second,omitempty"`
	Estimated        bool       `json:"estimated,omitempty"`
	CutOff           bool       `json:"cut_off,omitempty"`
	Run              *RunTotals `json:"run,omitempty"`
	LeftOut          *LeftOut   `json:"left_out,omitempty"`
}

// RunTotals adds up the token use of every model turn of a run (its
// Scope is UsageWholeRun); Estimated is set when any turn's counts were
// vouch's own.
type RunTotals struct {
	Scope            string `json:"scope"`
	Turns            int    `json:"turns"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	Estimated        bool   `json:"estimated,omitempty"`
}

// LeftOut is what a run did not give the model: earlier messages of the
// conversation that do not fit the window (they stay stored), vouch's own
// tools that do not fit a small window's budget, and active MCP servers
// whose tools are not offered, with why.
type LeftOut struct {
	EarlierMessages int             `json:"earlier_messages,omitempty"`
	Tools           string          `json:"tools,omitempty"`
	Servers         []LeftOutServer `json:"servers,omitempty"`
}

// LeftOutServer is an active MCP server whose tools a run did not offer.
type LeftOutServer struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

// addTurn counts one model turn's usage into u.
func (u *RunUsage) addTurn(ev agent.Usage) {
	run := u.Run
	if run == nil {
		run = &RunTotals{Scope: UsageWholeRun}
	}
	run.Turns++
	run.PromptTokens += ev.PromptTokens
	run.CompletionTokens += ev.CompletionTokens
	run.Estimated = run.Estimated || ev.Estimated
	left := u.LeftOut
	*u = RunUsage{Scope: UsageLastTurn, PromptTokens: ev.PromptTokens, CompletionTokens: ev.CompletionTokens, ContextWindow: ev.ContextWindow,
		TokensPerSecond: ev.TokensPerSecond, Estimated: ev.Estimated, CutOff: ev.CutOff, Run: run, LeftOut: left}
	if ev.LeftOut > 0 || ev.ToolsNote != "" {
		if u.LeftOut == nil {
			u.LeftOut = &LeftOut{}
		}
		u.LeftOut.EarlierMessages = max(u.LeftOut.EarlierMessages, ev.LeftOut)
		if ev.ToolsNote != "" {
			u.LeftOut.Tools = ev.ToolsNote
		}
	}
}

// LeaveOutServers records in res's usage the active servers whose tools
// the run did not offer (mcpclient.Manager.WarmFor), creating the usage
// when no turn reported one.
func (res *HeadlessResult) LeaveOutServers(absent []mcpclient.Absent) {
	if len(absent) == 0 {
		return
	}
	if res.Usage == nil {
		res.Usage = &RunUsage{Scope: UsageLastTurn}
	}
	if res.Usage.LeftOut == nil {
		res.Usage.LeftOut = &LeftOut{}
	}
	for _, a := range absent {
		res.Usage.LeftOut.Servers = append(res.Usage.LeftOut.Servers, LeftOutServer{Name: safetext.Line(a.Name, 100), Why: safetext.Line(a.Why, 300)})
	}
}

// FollowRun follows a run's events to the end: each shows on out, the
// answer goes into res. A call that needs approval with nobody to ask
// (ask nil) stops the run, recorded as waiting for approval, with an
// ApprovalNeeded error naming its correlation ID; stop ends the run with
// an outcome and a reason.
func FollowRun(events <-chan agent.Event, stop func(store.RunOutcome, string), ask Approver, out RunOutput, res *HeadlessResult) error {
	var stopped error // set when the run is ended for want of a person, or its output cannot be written
	var done agent.Done
	var answer strings.Builder
	// show passes ev to out; output that cannot be written ends the run
	// (SPEC M: a closed pipe is a failure, not silence).
	show := func(ev agent.Event) {
		if err := out.Show(ev); err != nil && stopped == nil {
			stopped = err
			stop(store.RunFailed, stopped.Error())
		}
	}
	for ev := range events {
		switch ev := ev.(type) {
		case agent.TextDelta:
			answer.WriteString(ev.Text)
			show(ev)
		case agent.PartFinished:
			// A flow step's or helper's answer ends its own line.
			answer.WriteString("\n")
			show(ev)
		case agent.Usage:
			if res.Usage == nil {
				res.Usage = &RunUsage{}
			}
			res.Usage.addTurn(ev)
			show(ev)
		case agent.ToolCallStarted, agent.ToolCallFinished, agent.ToolProgress, agent.InputNoted:
			show(ev)
		case agent.InputRequested:
			ev.Reply <- answerQuestion(out, ev.Question) // buffered: never blocks
		case agent.ApprovalRequested:
			if stopped != nil {
				continue
			}
			if ask == nil {
				stopped = Wrap(ApprovalNeeded, fmt.Errorf("%s needs approval (correlation ID %s); nothing was executed — %s",
					safetext.Line(ev.Call.Identity, 100), ev.Call.CorrelationID, approvalAdvice(ev.Call.Identity)))
				res.CorrelationID = ev.Call.CorrelationID
				stop(store.RunWaitingApproval, stopped.Error())
				continue
			}
			d, err := ask(ev)
			if err != nil {
				stopped = Wrap(ApprovalNeeded, fmt.Errorf("could not ask about %s on the terminal (correlation ID %s): %w; nothing was executed — run it again from a terminal you can type in%s",
					safetext.Line(ev.Call.Identity, 100), ev.Call.CorrelationID, err, orClassify(ev.Call.Identity)))
				res.CorrelationID = ev.Call.CorrelationID
				stop(store.RunWaitingApproval, stopped.Error())
				continue
			}
			ev.Reply <- d
		case agent.Done:
			done = ev
		}
	}
	// The run has ended: output that fails now fails the command but
	// leaves the run's recorded outcome alone.
	if err := out.End(); err != nil && stopped == nil {
		stopped = err
	}
	res.Answer = strings.TrimSpace(answer.String())
	res.CutOff = done.CutOff
	if stopped != nil {
		res.Outcome = string(store.RunFailed)
		if KindOf(stopped) == ApprovalNeeded {
			res.Outcome = string(store.RunWaitingApproval)
		}
		return stopped
	}
	res.Outcome = outcomeOf(done)
	switch done.Reason {
	case agent.StopDone:
		return nil
	case agent.StopError:
		if errors.Is(done.Err, agent.ErrUnreachable) || errors.Is(done.Err, agent.ErrTimeout) {
			return Wrap(Unavailable, done.Err)
		}
		return done.Err
	case agent.StopLimit:
		return done.Err
	default:
		return errors.New("the run was cancelled; what was streamed is kept as a partial answer")
	}
}

// answerQuestion asks out's person, or declines at once when nobody can
// be asked (SPEC B12: a headless run declines unless a terminal is given).
func answerQuestion(out RunOutput, q tool.Question) tool.Answer {
	qa, ok := out.(QuestionAnswerer)
	if !ok {
		return tool.Answer{Action: tool.Decline, Why: NoTerminal}
	}
	a, err := qa.AnswerQuestion(q)
	if err != nil {
		return tool.Answer{Action: tool.Decline, Why: errLine(err)}
	}
	return a
}

// errLine is err's text as one line.
func errLine(err error) string { return safetext.Line(err.Error(), 300) }

// outcomeOf names a run's end as history does.
func outcomeOf(d agent.Done) string {
	switch d.Reason {
	case agent.StopDone:
		return string(store.RunDone)
	case agent.StopCancelled:
		return string(store.RunCancelled)
	}
	return string(store.RunFailed)
}

// RunHeadless sends task on chat and follows the run's events to the end
// (FollowRun); a model server that does not answer is Unavailable.
func RunHeadless(ctx context.Context, chat *Chat, task string, ask Approver, out RunOutput, res *HeadlessResult) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := chat.Info(ctx); err != nil {
		return failedBeforeStart(ctx, chat, task, err, res)
	}
	events, rr, err := chat.Start(ctx, "", task)
	if err != nil {
		return failedBeforeStart(ctx, chat, task, err, res)
	}
	stop := func(o store.RunOutcome, reason string) { cancel() }
	if rr != nil {
		stop = func(o store.RunOutcome, reason string) { rr.Stop(o, reason); cancel() }
	}
	err = FollowRun(events, stop, ask, out, res)
	if rr != nil {
		res.RunID = rr.ID()
	}
	return err
}

// failedBeforeStart ends a headless run that could not start — the model
// server does not answer — as any failed run ends (issue 28 item 16): in
// run history, with its ID, outcome "failed" and the sentence, so that
// `vouch run --json` says so too; the error is Unavailable.
func failedBeforeStart(ctx context.Context, chat *Chat, task string, err error, res *HeadlessResult) error {
	res.Outcome, res.Error = string(store.RunFailed), err.Error()
	if chat.cfg.DB != nil {
		kind := chat.cfg.RunKind
		if kind == "" {
			kind = store.RunChat
		}
		rr := newRunRecorder(chat.cfg.DB, store.RunRecord{Kind: kind, Task: task, ConversationID: ConversationOf(chat.cfg.Transcript)}, nil, chat.cfg.HistoryErr)
		done := make(chan agent.Event, 1)
		done <- agent.Done{Reason: agent.StopError, Err: err}
		close(done)
		for range rr.Follow(ctx, done) {
		}
		res.RunID = rr.ID()
	}
	return Wrap(Unavailable, err)
}

// HeadlessChat is the chat `vouch run` runs a task on (SPEC M): the model
// given (model, else the one Settings names) on modelURL, recorded as a
// headless run; a plain run (profile "") continues the stored
// conversation cont, or starts a new one of its own.
func (a *App) HeadlessChat(profile, cont, modelURL, model string) (*Chat, error) {
	if model == "" {
		if m, ok, err := a.StoredModel(); err == nil && ok {
			model = m
		}
	}
	if profile == "" {
		var err error
		if cont == "" {
			_, err = a.newConversation(true) // its own, marked, not the one the interface opens
		} else {
			_, err = a.OpenConversation(cont)
		}
		if err != nil {
			return nil, err
		}
	}
	cfg := a.ChatConfig()
	cfg.ModelURL, cfg.Model, cfg.RunKind = modelURL, model, store.RunHeadless
	return NewChat(cfg), nil
}

// RunTask runs task on chat to its end (FollowRun): on the profile when
// one is named, else as a plain run; res says which servers' tools were
// left out (absent).
func (a *App) RunTask(ctx context.Context, chat *Chat, profile, task string, ask Approver, out RunOutput, res *HeadlessResult, absent []mcpclient.Absent) error {
	var err error
	if profile != "" {
		err = a.RunProfileHeadless(ctx, chat, profile, task, ask, out, res)
	} else {
		err = RunHeadless(ctx, chat, task, ask, out, res)
	}
	res.LeaveOutServers(absent)
	return err
}

// RunProfileHeadless runs task on the profile name, with chat finding the
// model server, and follows it to the end (FollowRun).
func (a *App) RunProfileHeadless(ctx context.Context, chat *Chat, name, task string, ask Approver, out RunOutput, res *HeadlessResult) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run, err := a.ProfileRunner(chat.Resolver()).Start(ctx, name, task, store.RunHeadless)
	if err != nil {
		return err
	}
	res.RunID, res.ProfileRevision = run.ID, run.Spec.ProfileRevision
	return FollowRun(run.Events, run.Stop, ask, out, res)
}

// approvalAdvice is what a headless run that stopped at a call needing
// approval tells the person to do: run again with --approve-tty, and, for
// a tool a rule may allow, classify it — never for one that writes, which
// 'vouch policy set' refuses to allow (issue 28 item 13).
func approvalAdvice(identity string) string {
	if !policy.CanAllow(identity) {
		return "run again with --approve-tty to answer it on the terminal (anything that writes asks, so no rule allows it)"
	}
	return "classify it with 'vouch policy set', or run again with --approve-tty"
}

// orClassify ends a sentence with the rule a person could set instead,
// when a rule may allow the tool.
func orClassify(identity string) string {
	if !policy.CanAllow(identity) {
		return ""
	}
	return ", or classify the tool with 'vouch policy set'"
}
