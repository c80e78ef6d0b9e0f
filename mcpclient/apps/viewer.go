package apps

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Viewer serves app views from loopback (SPEC J4). It listens twice, on
// 127.0.0.1 and two random ports:
//
//   - the host page, http://127.0.0.1:<host port>/v/<token>, vouch's own
//     page: it embeds the sandbox proxy and relays messages between it and
//     the bridge (POST …/send and …/poll);
//   - the sandbox proxy, http://localhost:<sandbox port>/s/<token>, served
//     with the view's Content-Security-Policy header, which loads the
//     view's HTML in an inner sandboxed frame.
//
// The two origins differ in host name and port, so they are cross-origin
// and cross-site, and both work through `ssh -L` forwarding of the two
// ports. Every request must carry the expected Host header (no DNS
// rebinding), an Origin, when present, of the expected page (required on
// POST), and a token: 32 random bytes per view and per page, compared in
// constant time. The host page's token never reaches the sandbox origin
// (no Referer is sent), so a view learns at most its own proxy's token.
type Viewer struct {
	hostLn, sandboxLn net.Listener
	hostSrv, boxSrv   *http.Server
	hostOrigin        string // http://127.0.0.1:<port>
	sandboxOrigin     string // http://localhost:<port>
	pollWait          time.Duration
	served            sync.WaitGroup

	mu     sync.Mutex
	closed bool
	views  map[string]*view // by host-page token
	boxes  map[string]*view // by sandbox token
}

// view is one open view.
type view struct {
	bridge       *Bridge
	token        string
	sandboxToken string
	header       string // the sandbox page's CSP
	title        string
}

// ViewerOptions configure NewViewer.
type ViewerOptions struct {
	// PollWait bounds one long poll of the host page (default 25 s).
	PollWait time.Duration
}

// NewViewer starts both listeners on 127.0.0.1 and random ports.
func NewViewer(opts ViewerOptions) (*Viewer, error) {
	if opts.PollWait <= 0 {
		opts.PollWait = 25 * time.Second
	}
	hostLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("open the app viewer's loopback port: %w", err)
	}
	boxLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = hostLn.Close()
		return nil, fmt.Errorf("open the app viewer's sandbox port: %w", err)
	}
	v := &Viewer{
		hostLn: hostLn, sandboxLn: boxLn,
		hostOrigin:    "http://" + hostLn.Addr().String(),
		sandboxOrigin: fmt.Sprintf("http://localhost:%d", boxLn.Addr().(*net.TCPAddr).Port),
		pollWait:      opts.PollWait,
		views:         map[string]*view{},
		boxes:         map[string]*view{},
	}
	v.hostSrv = &http.Server{Handler: http.HandlerFunc(v.serveHost), ReadHeaderTimeout: 10 * time.Second}
	v.boxSrv = &http.Server{Handler: http.HandlerFunc(v.serveSandbox), ReadHeaderTimeout: 10 * time.Second}
	v.served.Add(2)
	go v.serve(v.hostSrv, hostLn)
	go v.serve(v.boxSrv, boxLn)
	return v, nil
}

func (v *Viewer) serve(s *http.Server, ln net.Listener) {
	defer v.served.Done()
	_ = s.Serve(ln) // ends with http.ErrServerClosed at Close
}

// Ports returns the host page's and the sandbox's port, for the `ssh -L`
// line.
func (v *Viewer) Ports() (host, sandbox int) {
	return v.hostLn.Addr().(*net.TCPAddr).Port, v.sandboxLn.Addr().(*net.TCPAddr).Port
}

// Origins returns the host page's and the sandbox's origins.
func (v *Viewer) Origins() (host, sandbox string) { return v.hostOrigin, v.sandboxOrigin }

// SSHForward returns the `ssh -L` arguments that make the viewer reachable
// from the machine the person's browser runs on.
func (v *Viewer) SSHForward() string {
	h, s := v.Ports()
	return fmt.Sprintf("-L %d:127.0.0.1:%d -L %d:127.0.0.1:%d", h, h, s, s)
}

// newToken returns 32 random bytes, base64url.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("draw a view token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// Open serves b's view and returns its URL.
func (v *Viewer) Open(b *Bridge) (string, error) {
	token, err := newToken()
	if err != nil {
		return "", err
	}
	boxToken, err := newToken()
	if err != nil {
		return "", err
	}
	info := b.View()
	vw := &view{bridge: b, token: token, sandboxToken: boxToken, header: b.opts.CSP.Header(v.hostOrigin),
		title: info.Tool.Name + " — " + info.ServerName}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return "", ErrClosed
	}
	v.views[token] = vw
	v.boxes[boxToken] = vw
	return v.hostOrigin + "/v/" + token, nil
}

// Forget stops serving b's view (after its teardown).
func (v *Viewer) Forget(b *Bridge) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for t, vw := range v.views {
		if vw.bridge == b {
			delete(v.views, t)
			delete(v.boxes, vw.sandboxToken)
		}
	}
}

// Close stops both listeners. Views should be torn down first.
func (v *Viewer) Close() error {
	v.mu.Lock()
	v.closed = true
	v.views, v.boxes = map[string]*view{}, map[string]*view{}
	v.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := errors.Join(v.hostSrv.Shutdown(ctx), v.boxSrv.Shutdown(ctx))
	if errors.Is(err, context.DeadlineExceeded) {
		err = errors.Join(v.hostSrv.Close(), v.boxSrv.Close())
	}
	v.served.Wait()
	return err
}

// lookup finds a view by token in m, in constant time per comparison.
func (v *Viewer) lookup(m func() map[string]*view, token string) *view {
	v.mu.Lock()
	defer v.mu.Unlock()
	var found *view
	for t, vw := range m() {
		if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
			found = vw
		}
	}
	return found
}

// refuse answers a request that failed a check, saying little.
func refuse(w http.ResponseWriter, status int) {
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, http.StatusText(status), status)
}

// commonHeaders are set on every answer.
func commonHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// hostAllowed reports whether r's Host header names the listener as the
// page's URL does: anything else is a rebinding attempt or a mistake.
func hostAllowed(r *http.Request, origin string) bool {
	return "http://"+r.Host == origin
}

// serveHost serves the host page and its relay endpoints.
func (v *Viewer) serveHost(w http.ResponseWriter, r *http.Request) {
	if !hostAllowed(r, v.hostOrigin) {
		refuse(w, http.StatusMisdirectedRequest)
		return
	}
	origin := r.Header.Get("Origin")
	if origin != "" && origin != v.hostOrigin {
		refuse(w, http.StatusForbidden)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/v/")
	if !ok {
		refuse(w, http.StatusNotFound)
		return
	}
	token, action, _ := strings.Cut(rest, "/")
	vw := v.lookup(func() map[string]*view { return v.views }, token)
	if vw == nil {
		refuse(w, http.StatusNotFound)
		return
	}
	switch {
	case action == "" && r.Method == http.MethodGet:
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "none" && site != "same-origin" {
			refuse(w, http.StatusForbidden) // a page elsewhere framing or linking the view
			return
		}
		v.hostPage(w, vw)
	case r.Method != http.MethodPost:
		refuse(w, http.StatusMethodNotAllowed)
	case origin == "":
		refuse(w, http.StatusForbidden) // browsers send Origin on every POST
	case action == "send":
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMessageBytes+1))
		if err != nil {
			refuse(w, http.StatusRequestEntityTooLarge)
			return
		}
		vw.bridge.Handle(body)
		commonHeaders(w)
		w.WriteHeader(http.StatusNoContent)
	case action == "poll":
		ctx, cancel := context.WithTimeout(r.Context(), v.pollWait)
		defer cancel()
		msgs, err := vw.bridge.Next(ctx)
		commonHeaders(w)
		if errors.Is(err, ErrClosed) {
			refuse(w, http.StatusGone)
			return
		}
		if msgs == nil {
			msgs = []json.RawMessage{}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(msgs) // a page that went away just misses them
	default:
		refuse(w, http.StatusNotFound)
	}
}

// serveSandbox serves the sandbox proxy page.
func (v *Viewer) serveSandbox(w http.ResponseWriter, r *http.Request) {
	if !hostAllowed(r, v.sandboxOrigin) {
		refuse(w, http.StatusMisdirectedRequest)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != v.hostOrigin {
		refuse(w, http.StatusForbidden)
		return
	}
	token, ok := strings.CutPrefix(r.URL.Path, "/s/")
	if !ok || r.Method != http.MethodGet {
		refuse(w, http.StatusNotFound)
		return
	}
	if dest := r.Header.Get("Sec-Fetch-Dest"); dest != "" && dest != "iframe" {
		refuse(w, http.StatusForbidden) // only the host page's frame loads it
		return
	}
	vw := v.lookup(func() map[string]*view { return v.boxes }, token)
	if vw == nil {
		refuse(w, http.StatusNotFound)
		return
	}
	v.sandboxPage(w, vw)
}
