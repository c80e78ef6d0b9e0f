package mcpclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// probeKey carries a *probe in a request context, from this package's calls
// through mcp-go down to guardTransport, so that a failure can be classified
// by what the HTTP layer actually saw.
type probeKey struct{}

// probe records the HTTP facts of one logical operation (which may take a
// few requests, e.g. server/discover then initialize).
type probe struct {
	mu sync.Mutex
	f  probeFacts
}

// probeFacts is what a probe saw.
type probeFacts struct {
	status      int    // last response status
	mediaType   string // last response media type
	sentSession bool   // last request carried Mcp-Session-Id
	challenge   bool   // a 401 carried WWW-Authenticate
	oauth       bool   // ... naming OAuth metadata, or with no secret header configured
	tooLarge    bool   // a body exceeded the response limit
	redirect    bool   // a 3xx was refused
	noHeader    bool   // no secret header is configured
}

func withProbe(ctx context.Context) (context.Context, *probe) {
	p := &probe{}
	return context.WithValue(ctx, probeKey{}, p), p
}

func probeFrom(ctx context.Context) *probe {
	p, _ := ctx.Value(probeKey{}).(*probe)
	return p
}

func (p *probe) record(req *http.Request, resp *http.Response, secretHeader string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f := &p.f
	f.status = resp.StatusCode
	f.mediaType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	f.sentSession = req.Header.Get("Mcp-Session-Id") != ""
	f.noHeader = secretHeader == ""
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		f.redirect = true
	}
	if resp.StatusCode == http.StatusUnauthorized {
		if auth := resp.Header.Values("WWW-Authenticate"); len(auth) > 0 {
			f.challenge = true
			joined := strings.ToLower(strings.Join(auth, ","))
			// An OAuth server names its metadata (RFC 9728); without a
			// configured secret header, any challenge asks for authorization
			// vouch cannot give.
			if strings.Contains(joined, "resource_metadata") || secretHeader == "" {
				f.oauth = true
			}
		}
	}
}

func (p *probe) snapshot() probeFacts {
	if p == nil {
		return probeFacts{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.f
}

func (p *probe) markTooLarge() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.f.tooLarge = true
	p.mu.Unlock()
}

// errBodyTooLarge is what a capped body returns once its limit is passed.
var errBodyTooLarge = errors.New("response body exceeds the limit")

// guardTransport caps every response body, bounds session-ending DELETEs,
// and records what it saw in the request's probe.
type guardTransport struct {
	base         http.RoundTripper
	max          int64
	secretHeader string
}

// deleteTimeout bounds the DELETE mcp-go sends to end a legacy session when
// a connection closes, so a hung server cannot hold a close for long.
const deleteTimeout = time.Second

func (g *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var cancel context.CancelFunc
	if req.Method == http.MethodDelete {
		var ctx context.Context
		ctx, cancel = context.WithTimeout(req.Context(), deleteTimeout)
		req = req.WithContext(ctx)
	}
	resp, err := g.base.RoundTrip(req)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		return nil, err
	}
	p := probeFrom(req.Context())
	p.record(req, resp, g.secretHeader)
	resp.Body = &limitedBody{r: resp.Body, left: g.max, p: p, cancel: cancel}
	return resp, nil
}

// limitedBody fails once more than its limit has been read, so no response
// is ever held whole beyond Limits.MaxResponseBytes.
type limitedBody struct {
	r      io.ReadCloser
	left   int64
	p      *probe
	cancel context.CancelFunc
}

func (b *limitedBody) Read(buf []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.r.Read(one[:])
		if n == 0 && err != nil {
			return 0, err // the body ended exactly at the limit
		}
		b.p.markTooLarge()
		return 0, errBodyTooLarge
	}
	if int64(len(buf)) > b.left {
		buf = buf[:b.left]
	}
	n, err := b.r.Read(buf)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error {
	err := b.r.Close()
	if b.cancel != nil {
		b.cancel()
	}
	return err
}

// newHTTPClient wraps base's RoundTripper (or the default transport) with
// guardTransport, and refuses redirects: a redirect could carry the secret
// header to another host, and the person should enter the final URL
// instead. An *http.Transport is cloned, so each connection has its own
// pool of kept-alive TCP connections: a connection made after a server
// restart never reuses one the restart killed. closeIdle releases the pool.
func newHTTPClient(base *http.Client, lim Limits, secretHeader string) (hc *http.Client, closeIdle func()) {
	rt := http.DefaultTransport
	if base != nil && base.Transport != nil {
		rt = base.Transport
	}
	closeIdle = func() {}
	if t, ok := rt.(*http.Transport); ok {
		own := t.Clone()
		rt, closeIdle = own, own.CloseIdleConnections
	}
	return &http.Client{
		Transport: &guardTransport{base: rt, max: lim.MaxResponseBytes, secretHeader: secretHeader},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}, closeIdle
}

// classify turns a failed operation into an *Error with one sentence that
// says what to do. It never quotes the server or the secret. timeout is the
// budget the operation had, for the sentence.
func classify(err error, p *probe, timeout time.Duration) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	s := p.snapshot()
	mk := func(kind error, sentence string) *Error { return &Error{Kind: kind, Sentence: sentence, Err: err} }
	var rpc *rpcError
	var authErr *transport.AuthorizationRequiredError
	var te *transport.Error
	switch {
	case s.tooLarge || errors.Is(err, errBodyTooLarge):
		return mk(ErrResponseTooLarge, "The server's response exceeded the size limit and was discarded; ask for less data or raise the limit.")
	case errors.Is(err, context.Canceled):
		return mk(context.Canceled, "The request was cancelled.")
	case errors.Is(err, context.DeadlineExceeded) || isNetTimeout(err):
		return mk(ErrTimeout, fmt.Sprintf("The server did not answer within %s; check that it is running and reachable, then retry.", roundDuration(timeout)))
	case s.oauth:
		return mk(ErrOAuthUnsupported, "OAuth is not supported; use a server that accepts a static secret header, or none.")
	case s.status == http.StatusForbidden && s.noHeader:
		// No header to blame: Playwright MCP, for one, refuses a Host
		// other than localhost.
		return mk(ErrUnauthorized, "The server refused the request (HTTP 403) and vouch sent no secret header; if it needs one, add it to the server's settings — or it may check the Host header: use http://localhost:<port> instead of 127.0.0.1.")
	case (errors.As(err, &authErr) || s.status == http.StatusUnauthorized) && s.noHeader:
		// A 401 asks for credentials; the Host check answers 403.
		return mk(ErrUnauthorized, fmt.Sprintf("The server asks for credentials (HTTP %d) and vouch sent no secret header; add the header it needs to the server's settings.", nonzero(s.status, http.StatusUnauthorized)))
	case errors.As(err, &authErr) || s.status == http.StatusUnauthorized || s.status == http.StatusForbidden:
		return mk(ErrUnauthorized, fmt.Sprintf("The server refused the credentials (HTTP %d); check the secret header's name and value.", nonzero(s.status, http.StatusUnauthorized)))
	case s.redirect:
		return mk(ErrNotMCP, fmt.Sprintf("The server redirected the request (HTTP %d); enter the final endpoint URL instead.", s.status))
	case isTLSError(err):
		return mk(ErrTLS, "The server's TLS certificate is not trusted or the TLS handshake failed; fix the certificate or check that the URL's scheme and port are right.")
	case isRefused(err):
		return mk(ErrUnreachable, "Could not connect to the server (connection refused); check that it is running and the port is right.")
	case isDNS(err):
		return mk(ErrUnreachable, "Could not resolve the server's host name; check the URL.")
	// Before the web-page case: SSE-only servers answer the POST with an
	// HTML 404 page.
	case errors.Is(err, transport.ErrLegacySSEServer):
		return mk(ErrNotMCP, fmt.Sprintf("The endpoint refused the MCP handshake (HTTP %d); check the URL path, or the server may only offer the older SSE transport, which is not supported.", s.status))
	case s.mediaType == "text/html":
		return mk(ErrNotMCP, "The endpoint answered with a web page, not MCP; check the URL path (often /mcp).")
	case errors.As(err, &rpc):
		return mk(ErrProtocol, fmt.Sprintf("The server returned an error (JSON-RPC %d: %s).", rpc.Code, cleanText(rpc.Message, 200)))
	case isDecodeError(err):
		return mk(ErrNotMCP, "The endpoint's answer is not valid MCP JSON-RPC; check the URL.")
	case streamEnded(err):
		// Before the plain-error case: mcp-go's words for it ("unexpected
		// nil response") are not the server's, and no error was returned.
		return mk(ErrUnreachable, streamEndedSentence)
	case !errors.As(err, &te) && s.status != 0 && s.status < 300:
		// mcp-go turns a JSON-RPC error answer into a plain error.
		return mk(ErrProtocol, fmt.Sprintf("The server returned an error (%s).", strings.TrimSuffix(cleanText(err.Error(), 200), ".")))
	case s.status >= 500:
		return mk(ErrUnreachable, fmt.Sprintf("The server failed with HTTP %d; try again later or check the server's logs.", s.status))
	case s.status >= 400:
		return mk(ErrNotMCP, fmt.Sprintf("The endpoint answered HTTP %d; check the URL.", s.status))
	case isEOF(err):
		return mk(ErrUnreachable, "The server closed the connection; check that it is running, then retry.")
	}
	return mk(ErrUnreachable, "The server could not be reached or answered unexpectedly; check the URL and that the server is running.")
}

func nonzero(v, fallback int) int {
	if v == 0 {
		return fallback
	}
	return v
}

func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func isTLSError(err error) bool {
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	var he x509.HostnameError
	var rh tls.RecordHeaderError
	var cv *tls.CertificateVerificationError
	var ae tls.AlertError
	return errors.As(err, &ua) || errors.As(err, &ci) || errors.As(err, &he) ||
		errors.As(err, &rh) || errors.As(err, &cv) || errors.As(err, &ae) ||
		strings.Contains(err.Error(), "tls: ")
}

func isRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

func isDNS(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de)
}

func isEOF(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "EOF")
}

// streamEndedSentence is what vouch says of a stream that ended without
// an answer.
const streamEndedSentence = "The server's stream ended before it answered: the server may have crashed, and the tool may have done part of its work; check the server, and what the tool did, before retrying."

// streamEnded reports whether err is mcp-go's for a response stream that
// ended without the answer (a server that died mid-call; issue 24 item
// 4). mcp-go has no sentinel for it.
func streamEnded(err error) bool { return strings.Contains(err.Error(), "unexpected nil response") }

func isDecodeError(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "failed to decode response") || strings.Contains(msg, "unexpected content type") ||
		strings.Contains(msg, "failed to unmarshal") || strings.Contains(msg, "invalid character")
}
