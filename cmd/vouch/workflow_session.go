package main

import (
	"context"
	"fmt"
	"sync"

	"vouch/agent"
	"vouch/mcpclient"
)

// errSink counts failures that must not stop what is running (a history
// write) and reports them once, when the session closes. The zero value is
// ready; it is safe for concurrent use.
type errSink struct {
	mu   sync.Mutex
	n    int
	last error
}

func (s *errSink) report(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	s.last = err
}

func (s *errSink) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return nil
	}
	return fmt.Errorf("%d run history writes failed (last: %w); check the state directory", s.n, s.last)
}

// workflowsOn reads the Agent Workflows switch; an unreadable switch
// counts as off, so nothing new starts on a guess (SPEC H1).
func (s *session) workflowsOn() bool {
	on, err := s.db.WorkflowsEnabled()
	return err == nil && on
}

// profileRunner returns the runner of profile runs on this session, with
// b resolving the model server and model.
func (s *session) profileRunner(b *backend) *profileRunner {
	return &profileRunner{
		db: s.db,
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
		mcpTools: func(effect mcpclient.EffectFunc) []agent.Tool { return s.mcp.mgr.AgentTools(effect) },
		label:    s.mcp.label,
		cwd:      s.policy.workspace,
		audit:    s.policy.audit,
		limits:   agent.DefaultLimits(),
		onErr:    s.history.report,
	}
}
