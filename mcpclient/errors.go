package mcpclient

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"vouch/internal/panics"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// callers branch with errors.Is; the error's own message is one sentence that
// says what to do, in lower case to follow the caller's words (asClause).
var (
	// ErrInvalidConfig means a ServerConfig failed validation (SPEC B1, B2).
	ErrInvalidConfig = errors.New("invalid MCP server configuration")

	// ErrStdioUnsupported means the endpoint names a local command rather than
	// a Streamable HTTP URL (SPEC B4).
	ErrStdioUnsupported = errors.New("stdio servers are not supported in this release")

	// ErrOAuthUnsupported means the server asked for OAuth authorization
	// (an HTTP 401 with an authorization challenge). vouch opens no listener
	// and stores nothing for it (SPEC B4).
	ErrOAuthUnsupported = errors.New("OAuth is not supported")

	// ErrUnauthorized means the server refused the configured secret header
	// (HTTP 401 without an OAuth challenge, or 403).
	ErrUnauthorized = errors.New("the server refused the credentials")

	// ErrUnreachable means no connection could be made: refused, DNS, reset.
	ErrUnreachable = errors.New("the MCP server is unreachable")

	// ErrTimeout means the server did not answer within the time allowed.
	ErrTimeout = errors.New("the MCP server did not answer in time")

	// ErrTLS means the TLS handshake failed, usually an untrusted certificate.
	ErrTLS = errors.New("the MCP server's TLS certificate is not trusted")

	// ErrNotMCP means the endpoint answered, but not with MCP over
	// Streamable HTTP: a web page, garbage, a redirect or a refused handshake.
	ErrNotMCP = errors.New("the endpoint does not speak MCP over Streamable HTTP")

	// ErrProtocol means the server answered a request with a JSON-RPC error
	// or a malformed result.
	ErrProtocol = errors.New("the MCP server returned an error")

	// ErrResponseTooLarge means a response exceeded Limits.MaxResponseBytes
	// and was discarded without being held whole.
	ErrResponseTooLarge = errors.New("the MCP server's response is too large")

	// ErrSessionLost means the server no longer knows the session (HTTP 404
	// from mcp-go servers, HTTP 400 "No valid session ID provided" from
	// TypeScript-SDK servers, or JSON-RPC -32001). Read-only and idempotent
	// calls are retried once on a fresh connection; a mutation fails with this
	// error and its correlation ID and is never re-sent (SPEC B7).
	ErrSessionLost = errors.New("the MCP session expired")

	// ErrConnectionLost means the connection broke while a call was in
	// flight; the call may or may not have run, so it is never re-sent.
	ErrConnectionLost = errors.New("the connection to the MCP server broke during the call")

	// ErrSecretLocked means the secret header value needs the person to act
	// (unlock the keyring, enter the secret). Background warming never
	// prompts; the server's status becomes StatusLocked (SPEC B6).
	ErrSecretLocked = errors.New("the server's secret is locked")

	// ErrUnknownServer means no server with that ID is configured.
	ErrUnknownServer = errors.New("unknown MCP server")

	// ErrInactive means the server is configured but not activated (SPEC B2).
	ErrInactive = errors.New("the MCP server is not active")

	// ErrUnknownTool means the server's current catalog has no such tool.
	ErrUnknownTool = errors.New("unknown MCP tool")

	// ErrUnknownWireName means a model returned a wire name that is not in
	// the execution's frozen map. It is reported to the model, never guessed
	// (SPEC C2).
	ErrUnknownWireName = errors.New("unknown tool name")

	// ErrClosed means the Manager has been closed.
	ErrClosed = errors.New("the MCP manager is closed")

	// ErrInternal means vouch's own code panicked while it talked to a
	// server (a bug, never the person's doing): the server's status says so
	// and the process goes on (SPEC H7). It is panics.ErrInternal, so the
	// run loop and the CLI recognise it too.
	ErrInternal = panics.ErrInternal
)

// Error is a failure talking to one server. Its message is one sentence that
// says what happened and what to do; it never contains the secret header
// value or raw server output. Kind is one of the sentinel errors above.
type Error struct {
	Kind     error
	Sentence string
	// Err is the underlying cause, kept for errors.Is/As (for example
	// context.DeadlineExceeded). Its text is not shown: it may quote the
	// server.
	Err error
}

func (e *Error) Error() string { return asClause(e.Sentence) }

// Unwrap returns the sentinel and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// CallError is a failed tool call. It carries the call's correlation ID so
// the run record and the person can find it again (SPEC B7, H7). A call that
// failed with ErrSessionLost or ErrConnectionLost was not re-sent.
type CallError struct {
	ServerID      string
	Tool          string
	CorrelationID string
	// Retried reports whether the call was re-sent once after a session loss
	// (only ever for read-only or idempotent calls).
	Retried bool
	Err     error
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s (tool %q, correlation ID %s)", e.Err.Error(), e.Tool, e.CorrelationID)
}

// Unwrap returns the underlying *Error.
func (e *CallError) Unwrap() error { return e.Err }

// ConfigError is a validation failure of one field of a ServerConfig. Its
// message is one sentence saying what to do.
type ConfigError struct {
	Field    string
	Sentence string
	Kind     error
}

func (e *ConfigError) Error() string { return asClause(e.Sentence) }

// asClause is a Sentence as an error's text, which callers join after
// their own words and ": " or "; " (issue 28 item 15), so it starts in
// lower case as Go's error strings do: an ordinary capitalised first word
// is lowered, an acronym or name such as MCP or OAuth is kept. Where the
// sentence stands alone, the interface capitalises it again.
func asClause(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	next, _ := utf8.DecodeRuneInString(s[n:])
	if !unicode.IsUpper(r) || unicode.IsUpper(next) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// Unwrap returns ErrInvalidConfig or ErrStdioUnsupported.
func (e *ConfigError) Unwrap() error { return e.Kind }
