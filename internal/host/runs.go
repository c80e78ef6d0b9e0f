package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"vouch/internal/app"
	"vouch/internal/sessiond"
	"vouch/safetext"
)

// followEvery is how often a followed run's stored events are read again:
// the session tails the run as it is recorded, as tail -f does a file.
const followEvery = 200 * time.Millisecond

// startDetached starts a detached run in the session, choosing as `vouch
// run` does: a named profile, or the profile "default" when it exists and
// Agent Workflows is on, runs as a background profile run; otherwise the
// task is a plain headless chat run in a new conversation of its own
// (app.StartDetached). Either way its calls that need approval wait in the
// inbox as a scheduled run's do (SPEC H6, K4, M); the reply carries its ID.
func (h *sessionHost) startDetached(ctx context.Context, req sessiond.Request, send func(sessiond.Reply) error) error {
	profile, on, err := h.s.ProfileToRun(req.Profile, false)
	if err != nil {
		return fmt.Errorf("read the Agent Workflows switch: %w", err)
	}
	if profile != "" {
		if !on {
			return app.ErrWorkflowsOff
		}
		id, err := h.ui.Backend.RunProfile(ctx, profile, req.Task)
		if err != nil {
			return err
		}
		return send(sessiond.Reply{RunID: id, Done: true})
	}
	run, err := h.startPlain(ctx, req.Task)
	if err != nil {
		return err
	}
	return send(sessiond.Reply{RunID: run.ID, Done: true})
}

// startPlain starts a plain detached run on the model server and model
// the interface uses; the run lives as long as the session, not the
// request.
func (h *sessionHost) startPlain(ctx context.Context, task string) (app.DetachedRun, error) {
	info, err := h.ui.Backend.Info(ctx)
	if err != nil {
		return app.DetachedRun{}, app.Wrap(app.Unavailable, err)
	}
	cfg := h.s.ChatConfig()
	cfg.ModelURL, cfg.Model = h.flags["model-url"], info.Model
	return h.s.StartDetached(h.ctx, cfg, task, h.ui.Inbox(), time.Now)
}

// follow streams the events of a run, one line each, until the run ends;
// the last reply has its outcome.
func (h *sessionHost) follow(ctx context.Context, req sessiond.Request, send func(sessiond.Reply) error) error {
	if _, err := h.s.Run(req.RunID); err != nil {
		return fmt.Errorf("no run %s in history; 'vouch runs' lists them", safetext.Line(req.RunID, 40))
	}
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	sent := 0 // events are only ever appended
	for {
		// The record first: events written after it are read next time.
		r, err := h.s.Run(req.RunID)
		if err != nil {
			return fmt.Errorf("read the run: %w", err)
		}
		evs, err := h.s.RunEvents(req.RunID)
		if err != nil {
			return fmt.Errorf("read the run's events: %w", err)
		}
		for ; sent < len(evs); sent++ {
			if err := send(sessiond.Reply{Line: eventLine(evs[sent])}); err != nil {
				return err
			}
		}
		if r.Outcome.Final() {
			return send(sessiond.Reply{Outcome: string(r.Outcome), Line: finalLine(r), Done: true})
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the session ended while the run was going; 'vouch runs show %s' shows where it stopped", r.ID)
		case <-tick.C:
		}
	}
}

// eventLine is one stored event as `vouch runs show` prints it.
func eventLine(ev app.RunEvent) string {
	var b strings.Builder
	b.WriteString(ev.At.Local().Format(time.TimeOnly) + " " + string(ev.Kind))
	if ev.Identity != "" {
		b.WriteString(" " + ev.Identity)
	}
	if ev.Text != "" {
		b.WriteString(": " + ev.Text)
	}
	return safetext.Line(b.String(), 300)
}

// finalLine says how the run ended.
func finalLine(r app.RunRecord) string {
	line := "run " + r.ID + " " + string(r.Outcome)
	if r.Error != "" {
		line += ": " + r.Error
	}
	return safetext.Line(line, 300)
}
