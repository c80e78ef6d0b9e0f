package sessiond

import (
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"
)

// serveTerminal runs a terminal client: it holds the keyboard when nobody
// does, else it views; its frames until it goes.
func (s *Server) serveTerminal(c *client) {
	c.size = Size{Cols: c.hello.Cols, Rows: c.hello.Rows}
	notice := ""
	if s.cfg.Notice != nil {
		notice = s.cfg.Notice(c.hello)
	}
	if err := s.join(c, notice); err != nil {
		s.cfg.Log.Printf("start the interface: %v", err)
		c.bye(Bye{Reason: fmt.Sprintf("the session could not start the interface (%v); see session.log in the state directory", err)})
		return
	}
	defer s.leave(c)
	for {
		k, payload, err := ReadFrame(c.conn)
		if err != nil {
			return // EOF, a hang-up, or garbage: the session goes on (SPEC K4)
		}
		switch k {
		case KindInput:
			s.input(c, payload)
		case KindResize:
			var sz Size
			if decode(k, payload, &sz) != nil {
				return
			}
			s.resize(c, sz)
		case KindTakeOver:
			s.takeOver(c)
		case KindBye:
			return
		}
		s.backpressure()
	}
}

// join attaches c: as the holder of a new program when none runs, as the
// holder of the running one when nobody holds it, else as a viewer.
func (s *Server) join(c *client, notice string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prog == nil {
		prog, err := s.start(c)
		if err != nil {
			return err
		}
		s.prog, s.holder = prog, c
		prog.hub.add(c)
		s.status(c)
		s.attached(prog, c.size, Attach{Notice: notice})
		return nil
	}
	s.prog.hub.add(c)
	if s.holder == nil {
		s.holder = c
		s.status(c)
		s.attached(s.prog, c.size, Attach{Notice: notice})
		return nil
	}
	s.viewers = append(s.viewers, c)
	s.status(c)
	// A full frame for the newcomer; the holder's size stays.
	s.attached(s.prog, s.holder.size, Attach{})
	return nil
}

// start starts a program drawn for c; s.mu held.
func (s *Server) start(c *client) (*program, error) {
	prog := &program{in: newKeyReader(), done: make(chan struct{}), stream: newStream()}
	prog.hub = newHub(func(late *client) { s.leave(late) })
	model := s.cfg.NewModel(Terminal{Hello: c.hello, Output: prog.hub})
	// The program reads keyReader as a plain io.Reader (Bubble Tea's
	// cancel reader polls only files); closing it ends the read loop.
	opts := append(slices.Clone(s.cfg.ProgramOptions),
		tea.WithInput(prog.in), tea.WithOutput(prog.hub), tea.WithoutSignalHandler(), tea.WithContext(s.ctx))
	prog.p = tea.NewProgram(model, opts...)
	go prog.deliver()
	go func() {
		final, err := prog.p.Run()
		summary := ""
		if err != nil {
			s.cfg.Log.Printf("the interface ended: %v", err)
		} else if s.cfg.Farewell != nil {
			summary = s.cfg.Farewell(final)
		}
		prog.in.close()
		prog.stream.close()
		s.ended(prog, summary)
		close(prog.done)
	}()
	return prog, nil
}

// deliver hands the stream to the program in order, each item received
// before the next (see stream), until the program ends.
func (p *program) deliver() {
	for {
		it, ok := p.stream.next()
		if !ok {
			return
		}
		if it.keys != nil {
			p.in.put(it.keys)
		} else {
			p.p.Send(it.msg) // returns at once once the program ended
		}
		p.stream.done()
	}
}

// send queues m for the program, in order with every other message and
// key; s.mu held, so the order is the order of the server's decisions.
func (p *program) send(m tea.Msg) { p.stream.push(item{msg: m}) }

// attached sizes prog for its holder and repaints it; s.mu held.
func (s *Server) attached(prog *program, sz Size, a Attach) {
	if sz.Cols > 0 && sz.Rows > 0 {
		prog.send(tea.WindowSizeMsg{Width: sz.Cols, Height: sz.Rows})
	}
	if s.cfg.Attached != nil {
		prog.send(s.cfg.Attached(a))
	}
}

// ended says bye to the clients of a program that quit; the holder gets
// the summary to print.
func (s *Server) ended(prog *program, summary string) {
	s.mu.Lock()
	if s.prog == prog {
		for _, c := range s.all() {
			b := Bye{Reason: "vouch quit"}
			if c == s.holder {
				b.Summary = summary
			}
			c.bye(b)
		}
		s.prog, s.holder, s.viewers, s.quit = nil, nil, nil, true
	}
	s.mu.Unlock()
	s.poke()
}

// leave detaches c (it hung up, detached or fell behind); the first viewer
// takes the keyboard when c held it.
func (s *Server) leave(c *client) {
	c.drop("")
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.poke()
	if s.prog != nil {
		s.prog.hub.remove(c)
	}
	if i := slices.Index(s.viewers, c); i >= 0 {
		s.viewers = slices.Delete(s.viewers, i, i+1)
		return
	}
	if s.holder != c {
		return
	}
	s.holder = nil
	if len(s.viewers) == 0 || s.prog == nil {
		return
	}
	s.holder, s.viewers = s.viewers[0], s.viewers[1:]
	s.status(s.holder)
	s.attached(s.prog, s.holder.size, Attach{})
}

// input queues the holder's keys behind every message decided before
// them; a viewer's are not forwarded.
func (s *Server) input(c *client, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holder == c && s.prog != nil && len(b) > 0 {
		s.prog.stream.push(item{keys: b})
	}
}

// backpressure waits while the program has much queued: the client whose
// frames fill the stream is read no further until it drains.
func (s *Server) backpressure() {
	s.mu.Lock()
	prog := s.prog
	s.mu.Unlock()
	if prog != nil {
		prog.stream.wait()
	}
}

// resize records c's size; the program follows the holder's.
func (s *Server) resize(c *client, sz Size) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.size = sz
	if s.holder == c && s.prog != nil && sz.Cols > 0 && sz.Rows > 0 {
		s.prog.send(tea.WindowSizeMsg{Width: sz.Cols, Height: sz.Rows})
	}
}

// takeOver gives viewer c the keyboard; the holder becomes a viewer.
func (s *Server) takeOver(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.Index(s.viewers, c)
	if i < 0 || s.prog == nil {
		return
	}
	s.viewers = slices.Delete(s.viewers, i, i+1)
	old := s.holder
	s.holder = c
	if old != nil {
		s.viewers = append(s.viewers, old)
		s.status(old)
	}
	s.status(c)
	s.attached(s.prog, c.size, Attach{TakeOver: true})
}

// DetachHolder ends the holder's connection on the person's request: its
// client restores the terminal and says how to come back.
func (s *Server) DetachHolder() {
	s.mu.Lock()
	h := s.holder
	s.mu.Unlock()
	if h == nil {
		return
	}
	h.bye(Bye{Reason: "detached; run vouch to return", Detached: true})
	s.leave(h)
}

// SetApproval tells the server whether the interface shows an approval
// pane; viewers learn it in their status.
func (s *Server) SetApproval(waiting bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.approval == waiting {
		return
	}
	s.approval = waiting
	for _, v := range s.viewers {
		s.status(v)
	}
}

// status tells c its role; s.mu held.
func (s *Server) status(c *client) {
	c.json(KindStatus, Status{Viewer: c != s.holder, ApprovalWaiting: s.approval && c != s.holder})
}
