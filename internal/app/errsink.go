package app

import (
	"fmt"
	"sync"
)

// ErrSink counts failures that must not stop what is running (a history
// write) and reports them once, when the session closes. The zero value is
// ready; it is safe for concurrent use.
type ErrSink struct {
	mu   sync.Mutex
	n    int
	last error
}

// Report counts err; nil is not a failure.
func (s *ErrSink) Report(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	s.last = err
}

func (s *ErrSink) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return nil
	}
	return fmt.Errorf("%d run history writes failed (last: %w); check the state directory", s.n, s.last)
}
