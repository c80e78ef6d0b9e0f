package mcptest

import (
	"net/http"
	"sync"
)

// A Hold keeps the answers to one JSON-RPC method waiting until Release,
// as a loaded server, a slow network or a big catalog does (a tools/list
// of GitHub's 117 tools took over a second on a busy CI machine). Tests
// use it to order what happens while an answer is on its way, without
// sleeping: Arrived tells that a request reached the server, Release lets
// every held and later request through. Its methods are safe for
// concurrent use.
type Hold struct {
	arrived  chan struct{}
	released chan struct{}
	once     sync.Once
}

// holdArrivals is how many arrivals a Hold buffers before a request waits
// for the test to read Arrived.
const holdArrivals = 64

// Hold makes the server hold every request for method (for example
// "tools/list" or "server/discover") that arrives from now on, until the
// returned Hold is released. A request whose client goes away stops
// waiting. A second Hold for the same method replaces the first, which
// keeps holding what it held until it is released.
func (s *Server) Hold(method string) *Hold {
	h := &Hold{arrived: make(chan struct{}, holdArrivals), released: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holds == nil {
		s.holds = map[string]*Hold{}
	}
	s.holds[method] = h
	return h
}

// Arrived receives once per held request, when it reached the server (its
// method counted in Requests) and started waiting.
func (h *Hold) Arrived() <-chan struct{} { return h.arrived }

// Release lets the held requests, and every later one for the method,
// through. It is idempotent.
func (h *Hold) Release() { h.once.Do(func() { close(h.released) }) }

// wait holds r until h is released or r's client goes away; it reports
// whether r may go on.
func (h *Hold) wait(r *http.Request) bool {
	select {
	case h.arrived <- struct{}{}:
	case <-h.released:
	case <-r.Context().Done():
		return false
	}
	select {
	case <-h.released:
		return true
	case <-r.Context().Done():
		return false
	}
}

// held returns the Hold for method, if any.
func (s *Server) held(method string) *Hold {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holds[method]
}
