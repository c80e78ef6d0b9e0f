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
// holder of the running one when nobody holds it, else as a viewer. Every
// attached terminal is then redrawn at the new frame size.
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
		s.reframe(&Attach{Notice: notice})
		return nil
	}
	s.prog.hub.add(c)
	if s.holder == nil {
		s.holder = c
		s.reframe(&Attach{Notice: notice})
		return nil
	}
	s.viewers = append(s.viewers, c)
	// A full frame for the newcomer, at the size every window can show.
	s.reframe(&Attach{})
	return nil
}

// start starts a program drawn for c; s.mu held.
func (s *Server) start(c *client) (*program, error) {
	prog := &program{in: newKeyReader(), done: make(chan struct{}), stream: newStream()}
	prog.hub = newHub(func(late *client) { s.leave(late) })
	model := framed{s.cfg.NewModel(Terminal{Hello: c.hello, Output: prog.hub})}
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
			summary = s.cfg.Farewell(unframed(final))
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

// reframe sizes the program to the frame every attached terminal can
// show — the smallest of their sizes, per dimension (tmux's window-size
// smallest) — and redraws every terminal from scratch: with a's message
// (an attach or take-over) or a plain redraw (a resize, a client gone).
// Every client then learns the frame's size in its status; s.mu held.
func (s *Server) reframe(a *Attach) {
	if s.prog == nil {
		return
	}
	s.frame = smallest(s.all())
	if s.frame.Cols > 0 && s.frame.Rows > 0 {
		s.prog.send(tea.WindowSizeMsg{Width: s.frame.Cols, Height: s.frame.Rows})
	}
	if a != nil && s.cfg.Attached != nil {
		s.prog.send(s.cfg.Attached(*a))
	} else {
		s.prog.send(redrawMsg{})
	}
	for _, c := range s.all() {
		s.status(c)
	}
}

// smallest is the smallest size of cs per dimension; sizes not known (0)
// do not count.
func smallest(cs []*client) Size {
	var f Size
	for _, c := range cs {
		if c.size.Cols > 0 && (f.Cols == 0 || c.size.Cols < f.Cols) {
			f.Cols = c.size.Cols
		}
		if c.size.Rows > 0 && (f.Rows == 0 || c.size.Rows < f.Rows) {
			f.Rows = c.size.Rows
		}
	}
	return f
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
		s.reframe(nil) // the frame may grow: everyone again from scratch
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
	s.reframe(&Attach{})
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

// resize records c's size and redraws every terminal at the new frame.
func (s *Server) resize(c *client, sz Size) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.size = sz
	if s.holder == c || slices.Contains(s.viewers, c) {
		s.reframe(nil)
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
	}
	s.reframe(&Attach{TakeOver: true})
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

// ApprovalWaiting reports what the interface last said with SetApproval.
func (s *Server) ApprovalWaiting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.approval
}

// status tells c its role and the frame's size; s.mu held.
func (s *Server) status(c *client) {
	c.json(KindStatus, Status{Viewer: c != s.holder, ApprovalWaiting: s.approval && c != s.holder, Cols: s.frame.Cols, Rows: s.frame.Rows})
}

// redrawMsg asks the program for a frame drawn from scratch (framed).
type redrawMsg struct{}

// framed is the interface as the server runs it: a redrawMsg clears every
// terminal and draws the whole frame again; everything else is the
// interface's own.
type framed struct{ tea.Model }

func (f framed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(redrawMsg); ok {
		return f, tea.ClearScreen
	}
	m, cmd := f.Model.Update(msg)
	return framed{m}, cmd
}

// unframed is the interface inside m.
func unframed(m tea.Model) tea.Model {
	if f, ok := m.(framed); ok {
		return f.Model
	}
	return m
}
