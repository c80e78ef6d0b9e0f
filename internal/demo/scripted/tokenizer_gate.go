package scripted

import "net/http"

// WithTokenizerGate makes llama.cpp's /tokenize and /apply-template wait
// until gate is closed (or the request or the server ends) before they
// answer: a tokenizer that is slow or stuck, as a busy llama-server's can
// be (issue 18 item 2: 8 calls of 10 s each held one send for 80 s). A
// request that gives up first gets no answer at all.
func WithTokenizerGate(gate <-chan struct{}) Option {
	return func(o *options) { o.tokenizerGate = gate }
}

// gated wraps a tokenizer handler in the tokenizer gate, when one is set.
func (s *Server) gated(h http.HandlerFunc) http.HandlerFunc {
	gate := s.opts.tokenizerGate
	if gate == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-gate:
			h(w, r)
		case <-r.Context().Done():
		case <-s.closing:
		}
	}
}
