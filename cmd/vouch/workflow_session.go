package main

import (
	"context"
	"fmt"
	"time"

	"vouch/agent"

	"vouch/internal/panics"

	"vouch/mcpclient"
	"vouch/tool"
	"vouch/workflow"
)

// profileRunner returns the runner of profile runs on this session, with
// b resolving the model server and model.
func (s *session) profileRunner(b *backend) *profileRunner {
	return &profileRunner{
		db: s.DB(),
		resolve: func(ctx context.Context, model string) (*agent.Client, string, error) {
			client, _, err := b.connect(ctx)
			if err != nil {
				return nil, "", err
			}
			if model != "" {
				return client, model, nil
			}
			info, err := b.Info(ctx)
			if err != nil {
				return nil, "", err
			}
			return client, info.Model, nil
		},
		mcpTools: func(effect mcpclient.EffectFunc) []tool.Tool { return s.MCP().Manager().AgentTools(effect) },
		label:    s.MCP().Label,
		cwd:      s.Policy().Workspace(),
		policy:   s.Policy(),
		limits:   agent.DefaultLimits(),
		onErr:    s.ReportHistory,
		// Without a skill service no server skill loads, and a profile
		// enabling one is refused in a sentence.
		serverSkills: s.serverSkillService(),
	}
}

// background is what startScheduler returns: runNow starts a background
// run of a profile at the person's request, on the scheduler's terms;
// wait blocks until the background runs going now have ended; stop stops
// the scheduler, cancels and waits for every background run, then closes
// the inbox, so that the TUI's inbox listener returns.
type background struct {
	runNow func(name, task string) (string, error)
	wait   func()
	stop   func()
}

// startScheduler runs the schedules while the interface runs (SPEC H6).
func (s *session) startScheduler(ctx context.Context, b *backend, ib *inbox) background {
	ctx, cancel := context.WithCancel(ctx)
	runner := s.profileRunner(b)
	sch := newScheduler(s.DB(), runner.start, s.readyFor(b), ib, time.Now)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Each profile's tick recovers its own panics (a failed scheduled
		// run); one outside them stops the schedules, not the session, and
		// is reported when the session closes.
		defer panics.Recover("the scheduler", "its loop", func(e *panics.InternalError) { s.ReportHistory(e) })
		sch.loop(ctx, time.After)
	}()
	return background{
		runNow: func(name, task string) (string, error) { return sch.runNow(ctx, name, task) },
		wait:   sch.wait,
		stop: func() {
			cancel()
			<-done
			sch.shutdown()
			ib.close()
		},
	}
}

// readyTimeout bounds the check that a scheduled run's resources are up.
const readyTimeout = 10 * time.Second

// readyFor checks what a profile's run needs before a tick starts it: the
// model server answers, and every MCP server of its allowlist is active,
// connected and not locked behind the keyring. It never prompts.
func (s *session) readyFor(b *backend) func(context.Context, workflow.Profile) error {
	return func(ctx context.Context, p workflow.Profile) error {
		ctx, cancel := context.WithTimeout(ctx, readyTimeout)
		defer cancel()
		if _, err := b.Info(ctx); err != nil {
			return fmt.Errorf("the model server was not available (%v)", err)
		}
		for _, id := range p.Tools {
			serverID, _, ok := mcpclient.ParseIdentity(id)
			if !ok {
				continue
			}
			st, ok := s.MCP().Manager().Server(serverID)
			switch {
			case !ok:
				return fmt.Errorf("the MCP server of %s is no longer configured", id)
			case st.Status == mcpclient.StatusLocked:
				return fmt.Errorf("MCP server %q was locked: its secret in the keyring needs you", st.Config.Name)
			case st.Status != mcpclient.StatusConnected:
				return fmt.Errorf("MCP server %q was %s", st.Config.Name, st.Status)
			}
		}
		return nil
	}
}
