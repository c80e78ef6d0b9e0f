package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"vouch/agent"

	"vouch/internal/panics"
	"vouch/mcpclient"
	"vouch/store"
	"vouch/workflow"
)

// scheduler fires profile schedules (SPEC H6) while vouch's interface runs.
// It is not a server: a tick due while vouch was closed is recorded as
// missed, never run late. Each tick due now either starts a run, or is
// recorded as skipped (Agent Workflows off, the previous run still going)
// or missed (a resource the run needs is down) with its reason — in the
// schedule log and in run history. Calls that need approval wait in the
// inbox until answered or until their deadline.
//
// Time comes in as a parameter: tick(ctx, now) does one pass and loop
// drives it from an injectable clock, so tests never sleep.
type scheduler struct {
	db *store.DB
	// start starts a run of a profile as kind (see ProfileRunner.Start).
	start func(ctx context.Context, profile, task string, kind store.RunKind) (*ProfileRun, error)
	// ready reports, in one sentence, a resource the profile's run needs
	// and does not have: the model server, an MCP server, the keyring.
	ready func(ctx context.Context, p workflow.Profile) error
	inbox *Inbox
	// approvalWait is how long a call waits in the inbox.
	approvalWait time.Duration
	// started is when this scheduler began: ticks before it were missed
	// because vouch was not running.
	started time.Time
	// now is the clock that stamps inbox items.
	now func() time.Time

	mu      sync.Mutex
	running map[string]string // profile → ID of its run in flight ("" while it starts)
	ends    chan RunEnded     // background runs' ends (run_ends.go), closed by Stop
	closed  bool              // shutdown was called: no run starts any more
	wg      sync.WaitGroup    // one per entry of running
}

// Scheduler defaults.
const (
	// defaultApprovalWait is how long a scheduled run's call waits for the
	// person in the inbox before the run stops.
	defaultApprovalWait = 30 * time.Minute
	// lateTick is how late a tick may fire; later, the machine was asleep
	// or vouch was stopped, and the tick is missed.
	lateTick = 5 * time.Minute
	// maxCatchUp bounds the ticks counted in one pass.
	maxCatchUp = 100000
	// idleWake is the longest the loop sleeps, so a schedule added or
	// changed is seen within a minute.
	idleWake = time.Minute
)

func newScheduler(db *store.DB, start func(context.Context, string, string, store.RunKind) (*ProfileRun, error),
	ready func(context.Context, workflow.Profile) error, ib *Inbox, now func() time.Time) *scheduler {
	return &scheduler{db: db, start: start, ready: ready, inbox: ib, approvalWait: defaultApprovalWait,
		started: now(), now: now, running: map[string]string{}, ends: make(chan RunEnded, runEndsBuffer)}
}

// loop runs until ctx ends, waking at the next tick, the next inbox
// deadline, or idleWake at the latest; after is the clock's timer.
func (s *scheduler) loop(ctx context.Context, after func(time.Duration) <-chan time.Time) {
	for {
		t := s.now()
		next := s.tick(ctx, t)
		if d := s.inbox.expire(t); !d.IsZero() && (next.IsZero() || d.Before(next)) {
			next = d
		}
		wait := idleWake
		if !next.IsZero() && next.Sub(t) < wait {
			wait = max(next.Sub(t), time.Second)
		}
		select {
		case <-ctx.Done():
			return
		case <-after(wait):
		}
	}
}

// wait blocks until every run the scheduler started has ended.
func (s *scheduler) wait() { s.wg.Wait() }

// shutdown stops new runs from starting, runNow's included, and waits for
// the runs going to end.
func (s *scheduler) shutdown() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wg.Wait()
}

// tick handles every schedule due at or before now and returns the next
// tick of any schedule (zero: none).
func (s *scheduler) tick(ctx context.Context, now time.Time) time.Time {
	profiles, err := s.db.Profiles()
	if err != nil {
		return time.Time{}
	}
	on, err := s.db.WorkflowsEnabled()
	if err != nil {
		on = false // unreadable: nothing starts on a guess
	}
	var next time.Time
	for _, p := range profiles {
		if p.Schedule == nil {
			continue
		}
		sched, err := workflow.ParseSchedule(*p.Schedule)
		if err != nil {
			continue // the profile editor and 'vouch workflows status' say why
		}
		n := s.guardedTick(ctx, p, sched, on, now)
		if !n.IsZero() && (next.IsZero() || n.Before(next)) {
			next = n
		}
	}
	return next
}

// guardedTick is tickProfile, with a panic recorded as a failed scheduled
// run of p (its stack in the run's events) instead of stopping the
// scheduler or the process; the profile is looked at again next pass.
func (s *scheduler) guardedTick(ctx context.Context, p workflow.Profile, sched workflow.Timetable, on bool, now time.Time) (next time.Time) {
	defer panics.Recover("the scheduled run", "the scheduler", func(e *panics.InternalError) {
		next = time.Time{}
		s.note(p, now, now, 1, store.TickMissed, store.RunFailed, e.Error(), stackEvents(e)...)
	})
	return s.tickProfile(ctx, p, sched, on, now)
}

// tickProfile handles one profile's due ticks and returns its next tick.
func (s *scheduler) tickProfile(ctx context.Context, p workflow.Profile, sched workflow.Timetable, on bool, now time.Time) time.Time {
	mark, ok, err := s.db.ScheduleMark(p.Name)
	if err != nil {
		return time.Time{}
	}
	if !ok {
		// First sight of this schedule: nothing before now was due.
		_ = s.db.SetScheduleMark(p.Name, now)
		n, _ := sched.Next(now)
		return n
	}
	// Count the ticks in (mark, now]: those before the scheduler started
	// were missed while vouch was closed; later ones but the last were
	// missed while it was suspended; the last fires, unless it is late.
	var closed, asleep missedSpan
	var last time.Time
	t := mark
	for i := 0; i < maxCatchUp; i++ {
		n, ok := sched.Next(t)
		if !ok || n.After(now) {
			break
		}
		if !last.IsZero() {
			if last.Before(s.started) {
				closed.add(last)
			} else {
				asleep.add(last)
			}
		}
		last, t = n, n
	}
	if !last.IsZero() && (last.Before(s.started) || now.Sub(last) > lateTick) {
		if last.Before(s.started) {
			closed.add(last)
		} else {
			asleep.add(last)
		}
		last = time.Time{}
	}
	s.recordMissed(p, closed, "vouch was not running when it was due; schedules run only while vouch runs")
	s.recordMissed(p, asleep, "vouch was suspended or the computer was asleep when it was due")
	if !last.IsZero() {
		s.fire(ctx, p, on, last)
	}
	n, ok := sched.Next(t)
	if ok && !n.After(now) { // the catch-up bound was reached
		n, _ = sched.Next(now)
	}
	return n
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// missedSpan is a run of missed ticks.
type missedSpan struct {
	first, last time.Time
	count       int
}

func (m *missedSpan) add(t time.Time) {
	if m.count == 0 {
		m.first = t
	}
	m.last, m.count = t, m.count+1
}

// recordMissed writes one schedule log entry and one history record for
// a span of missed ticks.
func (s *scheduler) recordMissed(p workflow.Profile, m missedSpan, reason string) {
	if m.count == 0 {
		return
	}
	if m.count > 1 {
		reason = fmt.Sprintf("%d runs from %s to %s were missed: %s", m.count,
			m.first.Local().Format("2006-01-02 15:04"), m.last.Local().Format("2006-01-02 15:04"), reason)
	}
	s.note(p, m.first, m.last, m.count, store.TickMissed, store.RunMissed, reason)
}

// note records a tick that did not start a run, with events evs in its
// history record.
func (s *scheduler) note(p workflow.Profile, due, last time.Time, count int, tick store.ScheduleOutcome, outcome store.RunOutcome, reason string, evs ...store.RunEvent) {
	rec, err := s.db.CreateRun(store.RunRecord{Kind: store.RunScheduled, Profile: p.Name, ProfileRevision: p.Revision,
		Definition: p.Definition, Task: p.Schedule.Task, Started: due, Outcome: outcome, Error: reason})
	if err == nil && len(evs) > 0 {
		_ = s.db.AppendRunEvents(rec.ID, evs...) // as the entry below: the schedule log is best effort
	}
	entry := store.ScheduleEntry{Profile: p.Name, Due: due, Count: count, Outcome: tick, Reason: reason}
	if count > 1 {
		entry.Last = last
	}
	if err == nil {
		entry.RunID = rec.ID
	}
	_, _ = s.db.AppendScheduleEntry(entry)
}

// fire starts the run due at due, or records why it did not start.
func (s *scheduler) fire(ctx context.Context, p workflow.Profile, on bool, due time.Time) {
	if !on {
		s.note(p, due, due, 1, store.TickSkipped, store.RunSkipped, "Agent Workflows is off, so schedules are paused")
		return
	}
	prev, ok := s.reserve(p.Name)
	if !ok {
		s.note(p, due, due, 1, store.TickSkipped, store.RunSkipped, fmt.Sprintf("the previous run (%s) was still going", prev))
		return
	}
	if err := s.checkReady(ctx, p); err != nil {
		s.release(p.Name)
		var ie *panics.InternalError
		if errors.As(err, &ie) {
			s.note(p, due, due, 1, store.TickMissed, store.RunFailed, err.Error(), stackEvents(ie)...)
			return
		}
		s.note(p, due, due, 1, store.TickMissed, store.RunMissed, err.Error())
		return
	}
	run, err := s.start(ctx, p.Name, p.Schedule.Task, store.RunScheduled)
	if errors.Is(err, panics.ErrInternal) {
		// start kept it as a failed run with its stack; the log says so.
		s.release(p.Name)
		_, _ = s.db.AppendScheduleEntry(store.ScheduleEntry{Profile: p.Name, Due: due, Count: 1, Outcome: store.TickMissed, Reason: err.Error()})
		return
	}
	if err != nil {
		s.release(p.Name)
		var xe *Error
		outcome, tick := store.RunMissed, store.TickMissed
		if errors.As(err, &xe) && errors.Is(xe.Err, ErrWorkflowsOff) {
			outcome, tick = store.RunSkipped, store.TickSkipped
		}
		s.note(p, due, due, 1, tick, outcome, err.Error())
		return
	}
	_, _ = s.db.AppendScheduleEntry(store.ScheduleEntry{Profile: p.Name, Due: due, Count: 1, Outcome: store.TickStarted, RunID: run.ID})
	s.background(p.Name, run, store.RunScheduled, p.Schedule.Task, due)
}

// checkReady is ready, with a panic (in the model server's or an MCP
// server's client) returned as its *panics.InternalError.
func (s *scheduler) checkReady(ctx context.Context, p workflow.Profile) (err error) {
	if s.ready == nil {
		return nil
	}
	defer panics.Recover("the scheduled run", "the check of what it needs", func(e *panics.InternalError) { err = e })
	return s.ready(ctx, p)
}

// runNow starts a run of profile name on task at the person's request (the
// TUI's "run now") and returns its ID. It runs as a
// scheduled run does: in the background until it ends or vouch's
// interface closes, calls that need approval waiting in the inbox, kept in
// run history as a profile run (SPEC H6, H7). A profile with a run going
// does not start a second one.
func (s *scheduler) runNow(ctx context.Context, name, task string) (string, error) {
	task = strings.TrimSpace(task)
	if task == "" {
		return "", errors.New("type what the run should do, e.g. \"summarise the open issues\"")
	}
	if prev, ok := s.reserve(name); !ok {
		switch {
		case s.isClosed():
			return "", errors.New("vouch is closing, so no run starts now; run it with 'vouch run --profile' instead")
		case prev == "":
			return "", fmt.Errorf("profile %q is starting a run already; wait for it, then find it in the run history (ctrl+r)", name)
		}
		return "", fmt.Errorf("profile %q has a run going (%s); wait for it to end, or answer its calls in the approvals inbox (ctrl+e)", name, prev)
	}
	run, err := s.start(ctx, name, task, store.RunProfile)
	if err != nil {
		s.release(name)
		return "", err
	}
	s.background(name, run, store.RunProfile, task, s.now())
	return run.ID, nil
}

// reserve marks profile as having a run, or returns the ID of the run it
// has ("" while that one starts, or when the scheduler is closed). wait
// waits for every reservation to be released.
func (s *scheduler) reserve(profile string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", false
	}
	if prev, busy := s.running[profile]; busy {
		return prev, false
	}
	s.running[profile] = ""
	s.wg.Add(1)
	return "", true
}

// release ends profile's reservation.
func (s *scheduler) release(profile string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.running, profile)
	s.wg.Done()
}

func (s *scheduler) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// background follows a started run of a reserved profile until it ends,
// then releases the profile.
func (s *scheduler) background(profile string, run *ProfileRun, kind store.RunKind, task string, since time.Time) {
	s.mu.Lock()
	s.running[profile] = run.ID
	s.mu.Unlock()
	go func() {
		defer s.release(profile)
		defer s.inbox.DropRun(run.ID)
		defer s.publishEnd(profile, run.ID, kind) // after the follower (run_ends.go)
		// A panic while following ends the run failed (the recorder keeps
		// the sentence and, with Done, the stack); the events are drained
		// so that the run is not left waiting on its follower.
		defer panics.Recover("the run", "the scheduler's follower", func(e *panics.InternalError) {
			run.rec.mu.Lock()
			run.rec.add(stackEvents(e)...)
			run.rec.mu.Unlock()
			run.Stop(store.RunFailed, e.Error())
			for range run.Events {
			}
		})
		s.follow(profile, run, kind, task, since)
	}()
}

// follow reads a background run's events to the end, queueing each call
// that needs approval, and each question a server asks during a call
// (SPEC B12), in the inbox; neither waits as if asked before since (a
// scheduled run's due time), and both stop waiting at the same deadline.
func (s *scheduler) follow(profile string, run *ProfileRun, kind store.RunKind, task string, since time.Time) {
	for ev := range run.Events {
		switch ev := ev.(type) {
		case agent.InputRequested:
			requested := maxTime(since, s.now())
			q := ev.Question
			s.inbox.add(inboxEntry{
				item: InboxItem{RunID: run.ID, Profile: profile, Kind: string(kind), Task: task,
					Requested: requested, Deadline: requested.Add(s.approvalWait),
					Call: agent.ToolCall{CorrelationID: q.CorrelationID}, Question: &q},
				answer: ev.Reply,
				stop:   run.Stop,
			})
			continue
		case agent.InputNoted:
			s.inbox.dropQuestion(run.ID, ev.CorrelationID) // answered, or closed by the server
			continue
		}
		ar, ok := ev.(agent.ApprovalRequested)
		if !ok {
			continue
		}
		requested := maxTime(since, s.now())
		s.inbox.add(inboxEntry{
			item: InboxItem{RunID: run.ID, Profile: profile, Kind: string(kind), Task: task,
				Requested: requested, Deadline: requested.Add(s.approvalWait), Call: ar.Call, Tool: ar.Tool,
				Reason: ar.Reason, Effect: ar.Effect, Preview: ar.Preview, Definition: ar.Definition},
			reply: ar.Reply,
			stop:  run.Stop,
		})
	}
}

// Background is what StartScheduler returns: RunNow starts a background
// run of a profile at the person's request, on the scheduler's terms;
// Wait blocks until the background runs going now have ended; Stop stops
// the scheduler, cancels and waits for every background run, then closes
// the inbox, so that the TUI's inbox listener returns.
type Background struct {
	RunNow func(name, task string) (string, error)
	Wait   func()
	Stop   func()
	// Ends delivers each background run's end (SPEC L4); Stop closes it.
	Ends <-chan RunEnded
}

// StartScheduler runs the schedules while the interface runs (SPEC H6):
// runner starts each run (see App.ProfileRunner) and calls that need
// approval wait in ib.
func (a *App) StartScheduler(ctx context.Context, runner *ProfileRunner, ib *Inbox) Background {
	ctx, cancel := context.WithCancel(ctx)
	sch := newScheduler(a.db, runner.Start, a.readyFor(runner.resolve), ib, time.Now)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Each profile's tick recovers its own panics (a failed scheduled
		// run); one outside them stops the schedules, not the session, and
		// is reported when the session closes.
		defer panics.Recover("the scheduler", "its loop", func(e *panics.InternalError) { a.history.Report(e) })
		sch.loop(ctx, time.After)
	}()
	return Background{
		RunNow: func(name, task string) (string, error) { return sch.runNow(ctx, name, task) },
		Wait:   sch.wait,
		Ends:   sch.ends,
		Stop: func() {
			cancel()
			<-done
			sch.shutdown()
			close(sch.ends) // no run is left to end
			ib.Close()
		},
	}
}

// readyTimeout bounds the check that a scheduled run's resources are up.
const readyTimeout = 10 * time.Second

// readyFor checks what a profile's run needs before a tick starts it: the
// model server answers, and every MCP server of its allowlist is active,
// connected and not locked behind the keyring. It never prompts.
func (a *App) readyFor(resolve Resolver) func(context.Context, workflow.Profile) error {
	return func(ctx context.Context, p workflow.Profile) error {
		ctx, cancel := context.WithTimeout(ctx, readyTimeout)
		defer cancel()
		if _, _, err := resolve(ctx, ""); err != nil {
			return fmt.Errorf("the model server was not available (%v)", err)
		}
		for _, id := range p.Tools {
			serverID, _, ok := mcpclient.ParseIdentity(id)
			if !ok {
				continue
			}
			st, ok := a.mcp.mgr.Server(serverID)
			switch {
			case !ok:
				return fmt.Errorf("the MCP server of %s is no longer configured", id)
			case st.Status == mcpclient.StatusLocked:
				return fmt.Errorf("MCP server %q was locked: its secret in the keyring needs you", st.Config.Name)
			case !st.Status.Offered():
				return fmt.Errorf("MCP server %q was %s", st.Config.Name, st.Status)
			}
		}
		return nil
	}
}
