package sessiond

import (
	"errors"
	"os"
	"time"
)

// ErrBusy means a session asked to exit has something to do.
var ErrBusy = errors.New("the vouch session is busy")

// serveControl answers a command's requests until it hangs up.
func (s *Server) serveControl(c *client) {
	defer s.holdControl()()
	for {
		k, payload, err := ReadFrame(c.conn)
		if err != nil || k != KindRequest {
			return
		}
		var req Request
		if decode(k, payload, &req) != nil {
			return
		}
		send := func(r Reply) error {
			if !c.json(KindReply, r) {
				return errors.New("the command stopped reading the session's replies")
			}
			return nil
		}
		switch req.Op {
		case OpInfo:
			info := s.Info()
			_ = send(Reply{Info: &info, Done: true})
		case OpExitIfIdle:
			_ = send(s.exitIfIdle())
		default:
			if s.cfg.Control == nil {
				_ = send(Reply{Error: "this session does not take " + req.Op + " requests; run the same vouch binary", Done: true})
				continue
			}
			if err := s.cfg.Control(s.ctx, req, send); err != nil {
				_ = send(Reply{Error: err.Error(), Done: true})
			}
		}
	}
}

// holdControl counts a command's connection for as long as it lasts: the
// session does not exit on idle while one is served. It returns the
// release.
func (s *Server) holdControl() func() {
	s.mu.Lock()
	s.controls++
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.controls--
		s.mu.Unlock()
		s.poke()
	}
}

// Info describes the session now.
func (s *Server) Info() Info {
	s.mu.Lock()
	info := Info{
		Pid: os.Getpid(), StateDir: s.cfg.StateDir, Since: s.started.UTC().Format(time.RFC3339),
		Clients: s.terminals(), Viewers: len(s.viewers), Program: s.prog != nil,
	}
	s.mu.Unlock()
	if s.cfg.Describe != nil {
		s.cfg.Describe(&info)
	}
	return info
}

// exitIfIdle makes an idle session exit so that a command can open the
// database; a busy one says what keeps it.
func (s *Server) exitIfIdle() Reply {
	s.mu.Lock()
	terminals := s.terminals()
	s.mu.Unlock()
	if terminals > 0 || (s.cfg.Needed != nil && s.cfg.Needed()) {
		return Reply{Error: ErrBusy.Error(), Info: ptr(s.Info()), Done: true}
	}
	s.mu.Lock()
	s.exit = true
	s.mu.Unlock()
	s.poke()
	return Reply{Done: true}
}

func ptr[T any](v T) *T { return &v }
