package mcpclient

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"vouch/tool"
)

// Effect is a tool's reviewed effect (SPEC D1), set by local policy and
// never by server annotations. B7's replay rule reads it.
type Effect int

const (
	// EffectMutating may change something; unknown effects count as
	// mutating, so it is the zero value. A mutating call is never re-sent.
	EffectMutating Effect = iota
	// EffectReadOnly changes nothing.
	EffectReadOnly
	// EffectIdempotent may change something, but repeating it with the same
	// arguments changes nothing more.
	EffectIdempotent
)

// String returns "mutating", "read-only" or "idempotent".
func (e Effect) String() string {
	switch e {
	case EffectReadOnly:
		return "read-only"
	case EffectIdempotent:
		return "idempotent"
	}
	return "mutating"
}

// replayable reports whether B7 allows one automatic re-send.
func (e Effect) replayable() bool { return e == EffectReadOnly || e == EffectIdempotent }

// CallOptions describe one tool call.
type CallOptions struct {
	// CorrelationID identifies the call in the run record (SPEC H7); one is
	// generated when empty. Errors and results carry it.
	CorrelationID string
	// Effect is the reviewed effect from local policy (zero: mutating).
	Effect Effect
	// Reviewed is the digest of the definition Effect was read for
	// (ToolInfo.Digest; SPEC D8). When set, a read-only or idempotent call
	// is replayed only while the server still serves that definition: the
	// effect of a changed tool is not trusted. "" means the caller vouches
	// for Effect itself.
	Reviewed string
	// Timeout bounds the call, connection included (default: the
	// server's ServerConfig.CallTimeout, else Options.CallTimeout).
	// Cancelling ctx cancels the call, and the server is told (SPEC B11).
	Timeout time.Duration
	// SecretMode says whether fetching the secret may prompt, should the
	// call need a new connection (zero: NonInteractive).
	SecretMode SecretMode
	// OnProgress receives the call's progress notifications (SPEC B11);
	// nil takes the ProgressFunc of WithProgress on ctx, if any.
	OnProgress ProgressFunc
}

// Call calls a tool of an active server and returns its result as bounded,
// sanitized text (SPEC E1, E2). A tool-level failure is a Result with
// IsError set; a failure to get a result is a *CallError carrying the
// correlation ID.
//
// When the server has lost the session (SPEC B7), or the connection broke
// before the answer (a restart, a crash), the call is re-sent once on a
// fresh connection only if opts.Effect is read-only or idempotent — and,
// when opts.Reviewed is set, the cached definition is still the one that
// effect was reviewed for (SPEC D8). A mutating call (or one of a changed
// tool) fails with ErrSessionLost or ErrConnectionLost and is never re-sent:
// after a broken connection it may or may not have run.
func (m *Manager) Call(ctx context.Context, serverID, toolName string, args json.RawMessage, opts CallOptions) (Result, error) {
	res, _, err := m.call(ctx, serverID, toolName, args, opts)
	return res, err
}

// call is Call, also returning the raw result for CallRaw.
func (m *Manager) call(ctx context.Context, serverID, toolName string, args json.RawMessage, opts CallOptions) (Result, json.RawMessage, error) {
	if opts.CorrelationID == "" {
		opts.CorrelationID = uuid.NewString()
	}
	fail := func(retried bool, err error) (Result, json.RawMessage, error) {
		return Result{}, nil, &CallError{ServerID: serverID, Tool: toolName, CorrelationID: opts.CorrelationID, Retried: retried, Err: err}
	}
	args, err := callArguments(args)
	if err != nil {
		return fail(false, err)
	}
	s, err := m.callable(serverID, toolName)
	if err != nil {
		return fail(false, err)
	}
	defer m.watchAsker(opts.CorrelationID, tool.AskerFrom(ctx))()
	timeout := cmp.Or(opts.Timeout, s.cfg.CallTimeout, m.opts.CallTimeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	onProgress := opts.OnProgress
	if onProgress == nil {
		onProgress = progressFrom(ctx)
	}
	var report func(Progress)
	if onProgress != nil {
		report = func(p Progress) {
			p.ServerID, p.Tool, p.CorrelationID = serverID, toolName, opts.CorrelationID
			onProgress(p)
		}
	}

	retried := false
	for {
		c, err := m.connect(ctx, s, opts.SecretMode, timeout)
		if err != nil {
			if connectionBroken(err) {
				m.markUnreachable(s, err)
			}
			return fail(retried, err)
		}
		raw, p, err := c.callTool(ctx, toolName, opts.CorrelationID, args, report)
		if err == nil {
			res, err := convertResult(raw, m.opts.Limits.MaxResultBytes)
			if err != nil {
				return fail(retried, err)
			}
			res.CorrelationID, res.Retried = opts.CorrelationID, retried
			return res, raw, nil
		}
		var e *Error
		// B7 replays what the person reviewed as read-only or idempotent,
		// and only for the definition they reviewed (SPEC D8).
		changed := opts.Reviewed != "" && !m.servedDigestIs(serverID, toolName, opts.Reviewed)
		if c.sessionLost(err, p) {
			e = &Error{Kind: ErrSessionLost, Err: err, Sentence: sessionLostSentence(opts.Effect, retried, changed)}
		} else if e = c.classifyWithin(err, p, timeout); errors.Is(e, ErrTimeout) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e = &Error{Kind: ErrTimeout, Err: err, Sentence: callTimeoutSentence(timeout)}
		} else if errors.Is(e, ErrUnreachable) && !isRefused(err) && !isDNS(err) {
			sentence := "The connection to the server broke before the answer, so the call may or may not have run; vouch did not re-send it."
			if streamEnded(err) {
				sentence = streamEndedSentence + " vouch did not re-send it."
			}
			e = &Error{Kind: ErrConnectionLost, Err: err, Sentence: sentence}
		}
		if errors.Is(e, ErrSessionLost) || errors.Is(e, ErrConnectionLost) {
			m.mu.Lock()
			m.dropConnLocked(s, c)
			m.mu.Unlock()
			if opts.Effect.replayable() && !retried && !changed {
				retried = true
				continue
			}
		}
		if connectionBroken(e) { // refused, TLS, no longer MCP: the request never ran
			m.mu.Lock()
			m.dropConnLocked(s, c)
			m.mu.Unlock()
			m.markUnreachable(s, e)
		}
		return fail(retried, e)
	}
}

func sessionLostSentence(effect Effect, retried, changed bool) string {
	if retried {
		return "The server lost the session again right after reconnecting; check the server, then retry."
	}
	if changed && effect.replayable() {
		return "The server's session expired before this call, and the tool's definition changed since you classified it, so vouch did not re-send it; review the change, then run it again."
	}
	return fmt.Sprintf("The server's session expired before this %s call, and vouch never re-sends a call that may change something; check whether it is still wanted and run it again.", effect)
}

// connectionBroken reports whether e means the server is not usable now
// (as opposed to a slow tool or an error answer).
func connectionBroken(e error) bool {
	return errors.Is(e, ErrUnreachable) || errors.Is(e, ErrTLS) || errors.Is(e, ErrNotMCP)
}

// markUnreachable marks s stale after a failed connection: its tools stop
// being offered until a refresh succeeds (SPEC B5).
func (m *Manager) markUnreachable(s *server, e error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.removed || m.closed || !s.cfg.Active {
		return
	}
	if s.hasCatalog {
		s.status = StatusStale
		s.catalog.Err = e.Error()
	} else {
		s.status = StatusError
	}
	s.errText = e.Error()
	m.publishLocked()
}

// activeServer returns the server serverID when it is configured and active.
func (m *Manager) activeServer(serverID string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.activeServerLocked(serverID)
}

// activeServerLocked is activeServer with m.mu held.
func (m *Manager) activeServerLocked(serverID string) (*server, error) {
	s, ok := m.servers[serverID]
	switch {
	case m.closed:
		return nil, ErrClosed
	case !ok:
		return nil, errUnknownServer()
	case !s.cfg.Active:
		return nil, &Error{Kind: ErrInactive, Sentence: fmt.Sprintf("The MCP server %q is not active; activate it first.", s.cfg.Name)}
	}
	return s, nil
}

// errUnknownServer is the error for a server ID that is not configured.
func errUnknownServer() error {
	return &Error{Kind: ErrUnknownServer, Sentence: "That MCP server is not configured; add it with vouch server add."}
}

// callable checks that serverID is active and its catalog lists toolName.
func (m *Manager) callable(serverID, toolName string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.activeServerLocked(serverID)
	if err != nil {
		return nil, err
	}
	if _, ok := s.catalog.Tool(toolName); !s.hasCatalog || !ok {
		return nil, &Error{Kind: ErrUnknownTool, Sentence: fmt.Sprintf("The MCP server %q does not list that tool (any more); refresh its catalog.", s.cfg.Name)}
	}
	return s, nil
}

// callArguments checks that args is a JSON object ({} when empty).
func callArguments(args json.RawMessage) (json.RawMessage, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		return json.RawMessage("{}"), nil
	}
	if args[0] != '{' || !json.Valid(args) {
		return nil, &Error{Kind: ErrProtocol, Sentence: "The tool arguments are not a JSON object; call the tool again with an object of arguments."}
	}
	return args, nil
}
