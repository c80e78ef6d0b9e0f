package sessiond

import (
	"fmt"
	"io"
	"os"
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
		s.attached(prog, c.size, notice)
		return nil
	}
	s.prog.hub.add(c)
	if s.holder == nil {
		s.holder = c
		s.status(c)
		s.attached(s.prog, c.size, notice)
		return nil
	}
	s.viewers = append(s.viewers, c)
	s.status(c)
	// A full frame for the newcomer; the holder's size stays.
	s.attached(s.prog, s.holder.size, "")
	return nil
}

// start starts a program drawn for c; s.mu held.
func (s *Server) start(c *client) (*program, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("make the interface's input: %w", err)
	}
	prog := &program{in: w, done: make(chan struct{}), msgs: make(chan tea.Msg, msgQueue)}
	prog.hub = newHub(func(late *client) { s.leave(late) })
	model := s.cfg.NewModel(Terminal{Hello: c.hello, Output: prog.hub})
	// The program reads the pipe through a plain io.Reader: Bubble Tea's
	// cancel reader would poll the file's descriptor, racing its Close.
	// Closing the write end ends the program's read loop.
	opts := append(slices.Clone(s.cfg.ProgramOptions),
		tea.WithInput(struct{ io.Reader }{r}), tea.WithOutput(prog.hub), tea.WithoutSignalHandler(), tea.WithContext(s.ctx))
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
		_ = w.Close()
		_ = r.Close()
		s.ended(prog, summary)
		close(prog.done)
	}()
	return prog, nil
}

// msgQueue bounds the messages waiting for the program.
const msgQueue = 256

// deliver sends the queued messages to the program in order until it
// ends (Program.Send returns at once then).
func (p *program) deliver() {
	for {
		select {
		case m := <-p.msgs:
			p.p.Send(m)
		case <-p.done:
			return
		}
	}
}

// send queues m for the program, in order with every other; s.mu held,
// so the order is the order of the server's decisions.
func (p *program) send(m tea.Msg) {
	select {
	case p.msgs <- m:
	case <-p.done:
	}
}

// attached sizes prog for its holder and repaints it; s.mu held.
func (s *Server) attached(prog *program, sz Size, notice string) {
	if sz.Cols > 0 && sz.Rows > 0 {
		prog.send(tea.WindowSizeMsg{Width: sz.Cols, Height: sz.Rows})
	}
	if s.cfg.Attached != nil {
		prog.send(s.cfg.Attached(notice))
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
	s.attached(s.prog, s.holder.size, "")
}

// input forwards the holder's keys; a viewer's are not forwarded.
func (s *Server) input(c *client, b []byte) {
	s.mu.Lock()
	prog, holds := s.prog, s.holder == c
	s.mu.Unlock()
	if !holds || prog == nil {
		return
	}
	if _, err := prog.in.Write(b); err != nil {
		s.cfg.Log.Printf("forward keys to the interface: %v", err)
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
	s.attached(s.prog, c.size, "")
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
