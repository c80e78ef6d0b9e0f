package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vouch/agent"
	"vouch/internal/panics"
	"vouch/store"
	"vouch/tool"
)

// DetachedKind is the inbox Kind of the calls of a plain detached run
// (`vouch run --detach TASK` without a profile).
const DetachedKind = "detached"

// DetachedRun is a plain detached run that has started: its ID in run
// history, the conversation it writes to, and Done, closed once the run
// has ended and its calls have left the inbox.
type DetachedRun struct {
	ID             string
	ConversationID string
	Done           <-chan struct{}
}

// StartDetached starts task as a plain headless chat run in the session
// process (`vouch run --detach TASK` without a profile; SPEC K4, H6, M): in
// a new conversation of its own — the conversation the interface shows
// stays current — on cfg's model server and model, kept in run history as
// a headless run. Nobody is at a terminal, so each call that needs
// approval waits in ib (Kind "detached") as a background run's does: until
// the person answers it in the approvals inbox, or until its deadline
// (defaultApprovalWait after now()), when the run stops, recorded as
// waiting for approval with nothing executed. It returns once the run is
// recorded; the run goes on under ctx.
func (a *App) StartDetached(ctx context.Context, cfg ChatConfig, task string, ib *Inbox, now func() time.Time) (DetachedRun, error) {
	task = strings.TrimSpace(task)
	if task == "" {
		return DetachedRun{}, Errorf(Usage, "vouch run needs a task, e.g. vouch run --detach \"summarise README.md\"")
	}
	t, convID, err := a.detachedTranscript()
	if err != nil {
		return DetachedRun{}, err
	}
	cfg.Transcript, cfg.RunKind = t, store.RunHeadless
	cfg.NewConversation = nil // the run stays in its own conversation
	cfg.MoreTools = func() []tool.Tool { return a.runToolsOf(convID) }
	chat := NewChat(cfg)
	// discard removes the conversation of a run that never started, so no
	// empty one is left behind; it says why the run did not start.
	discard := func(cause error) error {
		if err := a.db.DeleteConversation(convID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return errors.Join(cause, fmt.Errorf("remove the unused conversation %s: %w", convID, err))
		}
		return cause
	}
	runCtx, cancel := context.WithCancel(ctx)
	if _, err := chat.Info(runCtx); err != nil {
		cancel()
		return DetachedRun{}, discard(Wrap(Unavailable, err))
	}
	events, rr, err := chat.Start(runCtx, "", task)
	if err != nil {
		cancel()
		return DetachedRun{}, discard(Wrap(Unavailable, err))
	}
	if rr == nil {
		cancel()
		for range events {
		}
		return DetachedRun{}, discard(errors.New("a detached run needs run history, and this session has no database; run vouch on a state directory"))
	}
	started := make(chan string, 1) // the run's ID once recorded; closed at its end
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer cancel()
		defer close(started)
		defer panics.Recover("the run", "the detached run's follower", func(e *panics.InternalError) {
			rr.Stop(store.RunFailed, e.Error())
			cancel()
			for range events {
			}
		})
		followDetached(events, rr, task, ib, now, cancel, started)
	}()
	id, ok := <-started
	if !ok || id == "" {
		<-done
		if id = rr.ID(); id == "" {
			return DetachedRun{}, errors.New("the detached run ended before run history could record it; 'vouch doctor' shows what is wrong with the state directory")
		}
	}
	return DetachedRun{ID: id, ConversationID: convID, Done: done}, nil
}

// followDetached reads a detached run's events to the end: the run's ID
// goes on started as soon as history has it, each call that needs
// approval waits in ib, and the run's calls leave ib when it ends.
func followDetached(events <-chan agent.Event, rr *RunRecorder, task string, ib *Inbox, now func() time.Time, cancel func(), started chan<- string) {
	announced := false
	announce := func() {
		if id := rr.ID(); !announced && id != "" {
			announced = true
			started <- id // buffered: sent once
		}
	}
	stop := func(o store.RunOutcome, reason string) { rr.Stop(o, reason); cancel() }
	for ev := range events {
		announce() // the recorder has seen ev: RunStarted created the record
		ar, ok := ev.(agent.ApprovalRequested)
		if !ok {
			continue
		}
		requested := now()
		ib.add(inboxEntry{
			item: InboxItem{RunID: rr.ID(), Kind: DetachedKind, Task: task,
				Requested: requested, Deadline: requested.Add(defaultApprovalWait), Call: ar.Call, Tool: ar.Tool,
				Reason: ar.Reason, Effect: ar.Effect, Preview: ar.Preview, Definition: ar.Definition},
			reply: ar.Reply,
			stop:  stop,
		})
	}
	announce() // a run that ended at once is recorded at its end
	ib.DropRun(rr.ID())
}

// detachedTranscript creates an empty conversation with the default tool
// selection, as NewConversation does, without making it current.
func (a *App) detachedTranscript() (agent.Transcript, string, error) {
	conv, err := a.db.CreateConversation("")
	if err != nil {
		return nil, "", fmt.Errorf("start the detached run's conversation: %w", err)
	}
	if err := a.applyDefaultTools(conv.ID); err != nil { // tool_select.go
		return nil, "", err
	}
	return &storeTranscript{db: a.db, convID: conv.ID}, conv.ID, nil
}

// runToolsOf is RunTools for the conversation convID rather than the
// current one.
func (a *App) runToolsOf(convID string) []tool.Tool {
	tools := a.BuiltinTools()
	if a.WorkflowsOn() {
		mcpTools := a.mcp.mgr.AgentTools(a.policy.Effect)
		if a.apps != nil {
			mcpTools = a.apps.Wrap(mcpTools)
		}
		tools = append(tools, mcpTools...)
	}
	return enabledTools(a.db, convID, tools)
}
