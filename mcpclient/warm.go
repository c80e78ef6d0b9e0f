package mcpclient

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
	"vouch/internal/panics"

	"github.com/mark3labs/mcp-go/mcp"
)

// Load reads the cached catalog of every configured server from the store.
// Loaded catalogs are shown, and marked stale until a refresh confirms them:
// their tools are not offered before that (SPEC B5).
func (m *Manager) Load(ctx context.Context) error {
	var errs []error
	for _, id := range m.serverIDs(false) {
		c, ok, err := m.opts.Store.LoadCatalog(ctx, id)
		if err != nil {
			errs = append(errs, fmt.Errorf("load the catalog of server %s: %w", id, err))
			continue
		}
		if !ok {
			continue
		}
		c.ServerID = id
		for i := range c.Tools {
			c.Tools[i].Identity = Identity(id, c.Tools[i].Name)
			c.Tools[i] = withDigest(c.Tools[i])
		}
		m.mu.Lock()
		if s := m.servers[id]; s != nil && !s.hasCatalog {
			s.catalog, s.hasCatalog = c, true
			if s.status == StatusConnecting {
				s.status = StatusStale
			}
			m.publishLocked()
		}
		m.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Start loads cached catalogs, then warms every active server in the
// background with bounded concurrency and per-server timeouts (SPEC B5). It
// returns once the catalogs are loaded; warming never prompts for a secret
// (SPEC B6).
func (m *Manager) Start(ctx context.Context) error {
	err := m.Load(ctx)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.WarmAll(m.life)
	}()
	return err
}

// WarmAll refreshes every active server, at most Options.Concurrency at a
// time, each within Options.Timeout, and returns when all are done. Failures
// are recorded in each server's status.
func (m *Manager) WarmAll(ctx context.Context) {
	sem := make(chan struct{}, m.opts.Concurrency)
	var wg sync.WaitGroup
	for _, id := range m.serverIDs(true) {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			m.logRefresh(id, m.Refresh(ctx, id, NonInteractive))
		}()
	}
	wg.Wait()
}

// WarmBound is the one bound on a command's warm-up (`vouch run`, `vouch
// tools`, `vouch server list`, `vouch doctor`; SPEC B5): a live server
// answers well within it, and no number of dead ones makes a command wait
// longer.
const WarmBound = time.Second

// maxWarmAtOnce caps the refreshes WarmFor runs at once.
const maxWarmAtOnce = 32

// Absent is an active server whose tools are not offered after a warm-up,
// and why, in one sentence.
type Absent struct {
	ID     string
	Name   string
	Status Status
	Why    string
}

// WarmFor refreshes every active server at once and waits at most bound
// (or until ctx ends) for them all: one bound for the whole warm-up, so a
// live server never queues behind dead ones. A server still refreshing
// then whose catalog is cached is StatusSlow: its cached tools are
// offered, and its refresh goes on in the background (until it ends, ctx
// ends or the manager closes), so a call to it reuses the connection once
// made. It returns the active servers whose tools are not offered, and
// why, sorted by name.
func (m *Manager) WarmFor(ctx context.Context, bound time.Duration) []Absent {
	ids := m.serverIDs(true)
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.wg.Add(len(ids) + 1)
	m.mu.Unlock()
	rctx, cancel := context.WithCancel(m.life)
	stopAfter := context.AfterFunc(ctx, cancel)
	sem := make(chan struct{}, min(max(m.opts.Concurrency, len(ids)), maxWarmAtOnce))
	var mu sync.Mutex
	finished := map[string]bool{}
	var all sync.WaitGroup
	all.Add(len(ids))
	for _, id := range ids {
		go func() {
			defer m.wg.Done()
			defer all.Done()
			select {
			case sem <- struct{}{}:
				m.logRefresh(id, m.Refresh(rctx, id, NonInteractive))
				<-sem
			case <-rctx.Done():
			}
			mu.Lock()
			finished[id] = true
			mu.Unlock()
		}()
	}
	allDone := make(chan struct{})
	go func() {
		defer m.wg.Done()
		all.Wait()
		stopAfter()
		cancel()
		close(allDone)
	}()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-allDone:
	case <-t.C:
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Absent
	for _, id := range ids {
		s := m.servers[id]
		if s == nil || !s.cfg.Active {
			continue
		}
		inFlight := !finished[id]
		if inFlight && s.hasCatalog && (s.status == StatusStale || s.status == StatusConnecting) && s.appliedSeq < s.refreshSeq {
			s.status = StatusSlow
		}
		switch s.status {
		case StatusConnected, StatusSlow:
			continue
		}
		why := s.errText
		if why == "" || inFlight {
			why = fmt.Sprintf("it did not answer within %s", bound)
		}
		out = append(out, Absent{ID: id, Name: s.cfg.Name, Status: s.status, Why: why})
	}
	m.publishLocked()
	slices.SortFunc(out, func(a, b Absent) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) })
	return out
}

// serverIDs lists configured servers, only active ones if activeOnly.
func (m *Manager) serverIDs(activeOnly bool) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for id, s := range m.servers {
		if !activeOnly || s.cfg.Active {
			ids = append(ids, id)
		}
	}
	return ids
}

// Refresh fetches one active server's tool list within Options.Timeout,
// stores the new catalog and marks the server connected. On failure the
// previous catalog stays, marked stale (or the status says locked, error or
// unsupported) and the error is returned. mode says whether fetching the
// secret may prompt.
//
// A panic while the server's answer is fetched or read is this server's
// failure, never the process's (SPEC H7): its status says so in one
// sentence (see panicked) and the error wraps ErrInternal. Every
// background refresh — warming, list_changed, re-activation — goes
// through here.
func (m *Manager) Refresh(ctx context.Context, id string, mode SecretMode) (err error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	m.mu.Lock()
	s, ok := m.servers[id]
	switch {
	case m.closed:
		m.mu.Unlock()
		return ErrClosed
	case !ok:
		m.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrUnknownServer, id)
	case !s.cfg.Active:
		m.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrInactive, id)
	}
	s.refreshSeq++
	seq, gen := s.refreshSeq, s.endpointGen
	m.mu.Unlock()
	defer panics.Recover("refreshing the server's tools", "vouch's MCP client", func(e *panics.InternalError) {
		err = m.panicked(id, s, seq, gen, e)
	})

	raws, c, err := m.listTools(ctx, s, mode)
	if err != nil {
		if gaveUp(ctx) {
			return err // the caller's choice, not the server's failure (refresh_order.go)
		}
		m.failed(s, seq, gen, err)
		return err
	}
	tools, rejected := validateTools(id, raws, m.opts.Limits)
	cat := Catalog{ServerID: id, Tools: tools, Rejected: rejected, FetchedAt: m.opts.Now().UTC()}
	if !m.applied(s, seq, gen, cat, c) {
		return nil // a newer refresh or a config change won
	}
	saveCtx, cancelSave := context.WithTimeout(context.WithoutCancel(ctx), m.opts.Timeout)
	defer cancelSave()
	if err := m.opts.Store.SaveCatalog(saveCtx, cat.Clone()); err != nil {
		return fmt.Errorf("save the catalog of server %s: %w", id, err)
	}
	return nil
}

// applied makes cat s's catalog unless a newer refresh's catalog or a
// config change won. An answer that arrives after a newer refresh failed
// is applied: it is the latest news from the server (refresh_order.go).
// The lock is released by defer, so a panic here cannot leave it held.
func (m *Manager) applied(s *server, seq, gen uint64, cat Catalog, c *conn) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.removed || s.endpointGen != gen || !catalogWins(s, seq) {
		return false
	}
	s.catalogSeq, s.appliedSeq = seq, max(s.appliedSeq, seq)
	s.catalog, s.hasCatalog = cat, true
	s.status, s.errText = StatusConnected, ""
	s.protocol, s.serverInfo = c.version, c.info
	m.publishLocked()
	return true
}

// panicked records a panic during a refresh of server id as its failure:
// the previous catalog stays, marked by the status, whose sentence says
// what happened and what to do; the panic value and stack go to the debug
// log. It returns the error Refresh returns.
func (m *Manager) panicked(id string, s *server, seq, gen uint64, e *panics.InternalError) error {
	err := &Error{Kind: ErrInternal, Err: e,
		Sentence: "vouch hit an internal error while reading this server's tool list, so its tools were not refreshed; refresh the server to try again, and please report it."}
	m.mu.Lock()
	m.dropConnLocked(s, s.conn) // in an unknown state after the panic
	m.mu.Unlock()
	m.failed(s, seq, gen, err)
	// Logged once the status says so: whoever reads the log finds the
	// server's state already telling the person.
	m.opts.Logger.Debug("mcp: internal error", "server", id, "panic", e.Value, "stack", e.Stack)
	return err
}

// listTools lists tools on s's live connection (dialing if needed). Listing
// is read-only, so a lost session is re-established and the list retried
// once (SPEC B7).
func (m *Manager) listTools(ctx context.Context, s *server, mode SecretMode) ([]json.RawMessage, *conn, error) {
	for attempt := 0; ; attempt++ {
		c, err := m.connect(ctx, s, mode, m.opts.Timeout)
		if err != nil {
			return nil, nil, err
		}
		if c.caps.Tools == nil {
			return nil, c, nil // a server without tools (SPEC B3)
		}
		raws, err := c.listTools(ctx)
		if err == nil {
			return raws, c, nil
		}
		if ctx.Err() != nil {
			// This caller ran out of patience; the connection is not
			// known to be broken, and other requests may be on it.
			return nil, nil, err
		}
		m.mu.Lock()
		m.dropConnLocked(s, c)
		m.mu.Unlock()
		if !errors.Is(err, ErrSessionLost) || attempt > 0 {
			return nil, nil, err
		}
	}
}

// connect returns s's live connection, dialing one if there is none. Only
// one dial per server runs at a time; others wait for it (or their ctx).
func (m *Manager) connect(ctx context.Context, s *server, mode SecretMode, timeout time.Duration) (*conn, error) {
	select {
	case s.dial <- struct{}{}:
	case <-ctx.Done():
		return nil, classify(ctx.Err(), nil, timeout)
	}
	defer func() { <-s.dial }()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	c, cfg, gen, hint := s.conn, s.cfg, s.endpointGen, s.legacyVersion
	m.mu.Unlock()
	if c != nil {
		return c, nil
	}
	secret, err := m.secretFor(ctx, cfg, mode)
	if err != nil {
		return nil, err
	}
	c, err = dial(ctx, dialConfig{
		cfg: cfg, secret: secret, httpClient: m.opts.HTTPClient, limits: m.opts.Limits, logger: m.opts.Logger,
		clientInfo: mcp.Implementation{Name: "vouch", Version: m.opts.ClientVersion}, timeout: timeout,
		listen: true, onToolsChanged: func() { m.onToolsChanged(cfg.ID, gen) }, legacyVersion: hint,
		onDeclined: func(_, why string) { m.declinedOutside(cfg, hostOf(cfg.URL), why) },
	})
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || s.removed || s.endpointGen != gen {
		m.dropConnLocked(s, c)
		return nil, &Error{Kind: ErrClosed, Sentence: "The server's configuration changed or it was removed; retry."}
	}
	s.conn = c
	if !c.modern {
		s.legacyVersion = c.version
	}
	return c, nil
}

// secretFor fetches cfg's secret header value, if it has a header.
func (m *Manager) secretFor(ctx context.Context, cfg ServerConfig, mode SecretMode) (string, error) {
	if cfg.HeaderName == "" {
		return "", nil
	}
	v, err := m.opts.Secrets.Secret(ctx, cfg.ID, mode)
	if err != nil || v == "" {
		return "", &Error{Kind: ErrSecretLocked, Err: err,
			Sentence: "The server's secret is locked or missing; unlock the keyring or enter the secret in the server editor."}
	}
	return v, nil
}

// failed records a failed refresh: the previous catalog stays, marked by
// the status. It leaves the live connection alone: listTools has dropped
// the one this refresh broke, and another refresh may be using the
// current one (refresh_order.go).
func (m *Manager) failed(s *server, seq, gen uint64, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || s.removed || s.endpointGen != gen || seq <= s.appliedSeq {
		return
	}
	s.appliedSeq = seq
	switch {
	case errors.Is(err, ErrSecretLocked):
		s.status = StatusLocked
	case errors.Is(err, ErrOAuthUnsupported), errors.Is(err, ErrStdioUnsupported):
		s.status = StatusUnsupported
	case s.hasCatalog:
		s.status = StatusStale
	default:
		s.status = StatusError
	}
	s.errText = err.Error()
	if s.hasCatalog {
		s.catalog.Err = s.errText
	}
	m.publishLocked()
}

// onToolsChanged handles notifications/tools/list_changed from a
// connection made for endpoint generation gen: it refreshes the server in
// the background, coalescing notifications that arrive meanwhile (SPEC B8).
// It runs on mcp-go's goroutines and never blocks.
func (m *Manager) onToolsChanged(id string, gen uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.servers[id]
	if m.closed || s == nil || s.endpointGen != gen {
		return
	}
	if s.notifyRunning {
		s.notifyAgain = true
		return
	}
	s.notifyRunning = true
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		for {
			m.logRefresh(id, m.Refresh(m.life, id, NonInteractive))
			m.mu.Lock()
			if !s.notifyAgain || m.closed {
				s.notifyRunning = false
				m.mu.Unlock()
				return
			}
			s.notifyAgain = false
			m.mu.Unlock()
		}
	}()
}
