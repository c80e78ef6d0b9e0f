package sessiond

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A command through the session (SPEC K5). While a session holds the
// state directory, every command runs on the session's application, the
// one writer of the database, the way a tmux command is a message to the
// tmux server. The client greets with RoleExec, then passes its standard
// input, output and error — and its terminal, when it has one — as file
// descriptors (SCM_RIGHTS over the 0600 socket whose peer both sides
// checked), then sends the command (Exec). The session runs the command's
// own code on those files, so it prints exactly what it prints in-process,
// to the same terminal or pipe, and answers with its exit status (Exit).
// A client that goes away (ctrl+c, a killed shell) cancels the command
// as if it were interrupted; ctrl+c in the client sends Cancel first.

// RoleExec is a command run through the session.
const RoleExec = "exec"

// The frames of a command through the session.
const (
	// KindFiles carries the client's files as SCM_RIGHTS (client →
	// session; payload: how many, one byte).
	KindFiles Kind = 20
	// KindExec is the command (client → session; JSON Exec).
	KindExec Kind = 21
	// KindExit is the command's exit status (session → client; JSON
	// Exit).
	KindExit Kind = 22
	// KindCancel interrupts the command (client → session; no payload).
	KindCancel Kind = 23
)

// Exec is a command to run in the session.
type Exec struct {
	// Args are the command's arguments, without the program name.
	Args []string `json:"args"`
	// Env is the client's whole environment.
	Env map[string]string `json:"env"`
	// Cwd is the client's working directory: relative paths are its.
	Cwd string `json:"cwd"`
	// TTY is whether the fourth file is the client's terminal.
	TTY bool `json:"tty,omitempty"`
}

// Exit is a command's exit status.
type Exit struct {
	Code int `json:"code"`
}

// ExecFiles are the client's files as the session receives them. The
// server closes them after the command returned.
type ExecFiles struct {
	Stdin, Stdout, Stderr *os.File
	// TTY is the client's terminal, or nil.
	TTY *os.File
}

// maxExecFiles is how many files a command passes: stdin, stdout,
// stderr and a terminal.
const maxExecFiles = 4

// serveExec runs one command for c.
func (s *Server) serveExec(c *client) {
	if s.cfg.Exec == nil {
		c.bye(Bye{Reason: "this session does not run commands; run the same vouch binary", Refused: true})
		return
	}
	conn, ok := c.conn.(*net.UnixConn)
	if !ok {
		c.bye(Bye{Reason: "a command needs a Unix socket", Refused: true})
		return
	}
	files, err := recvFiles(conn)
	if err != nil {
		s.cfg.Log.Printf("a command's files: %v", err)
		c.bye(Bye{Reason: "the session could not take the command's files (" + err.Error() + ")", Refused: true})
		return
	}
	defer closeFiles(files)
	k, payload, err := ReadFrame(conn)
	var x Exec
	if err == nil && k != KindExec {
		err = fmt.Errorf("frame kind %d, want the command", k)
	}
	if err == nil {
		err = decode(k, payload, &x)
	}
	if err != nil || len(files) < 3 || (x.TTY && len(files) < 4) {
		s.cfg.Log.Printf("a command's request: %v (%d files)", err, len(files))
		c.bye(Bye{Reason: "the session could not read the command; run the same vouch binary", Refused: true})
		return
	}
	ef := ExecFiles{Stdin: files[0], Stdout: files[1], Stderr: files[2]}
	if x.TTY {
		ef.TTY = files[3]
	}
	defer s.holdControl()()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	// The client's hang-up or its Cancel interrupts the command.
	go func() {
		defer cancel()
		for {
			k, _, err := ReadFrame(conn)
			if err != nil || k == KindCancel {
				return
			}
		}
	}()
	code := s.cfg.Exec(ctx, x, ef)
	c.json(KindExit, Exit{Code: code})
	c.drop("")
}

// recvFiles reads the KindFiles frame and the descriptors that came with
// it.
func recvFiles(conn *net.UnixConn) ([]*os.File, error) {
	var head [6]byte
	oob := make([]byte, unix.CmsgSpace(maxExecFiles*4))
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return nil, fmt.Errorf("set a deadline: %w", err)
	}
	n, oobn, _, _, err := conn.ReadMsgUnix(head[:], oob)
	if err != nil {
		return nil, fmt.Errorf("read the files frame: %w", err)
	}
	if err := conn.SetReadDeadline(time.Time{}); err != nil {
		return nil, fmt.Errorf("clear the deadline: %w", err)
	}
	files, perr := parseRights(oob[:oobn])
	if n < len(head) {
		if _, err := io.ReadFull(conn, head[n:]); err != nil {
			return nil, errors.Join(fmt.Errorf("read the files frame: %w", err), closeFiles(files))
		}
	}
	if perr != nil || Kind(head[0]) != KindFiles || head[1] != 0 || head[2] != 0 || head[3] != 0 || head[4] != 1 || int(head[5]) != len(files) {
		return nil, errors.Join(fmt.Errorf("not a files frame (kind %d, %d files): %w", head[0], len(files), ErrFrame), perr, closeFiles(files))
	}
	return files, nil
}

// parseRights returns the descriptors of SCM_RIGHTS messages in oob.
func parseRights(oob []byte) ([]*os.File, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, fmt.Errorf("parse the files: %w", err)
	}
	var files []*os.File
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if len(files) == maxExecFiles {
				_ = unix.Close(fd) // more than a command passes: not ours to keep
				continue
			}
			files = append(files, os.NewFile(uintptr(fd), fmt.Sprintf("client file %d", len(files))))
		}
	}
	return files, nil
}

func closeFiles(files []*os.File) error {
	var errs []error
	for _, f := range files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// RunExec runs x in the session of stateDir on the given files (tty may
// be nil) and returns its exit status. ErrNoSession (or ErrUntrusted)
// means it did not run: run the command in-process (or refuse). A
// session of another vouch that does not run commands answers with a
// *ByeError. ctrl+c (SIGINT) cancels the command; a second one gives up
// waiting and returns 130.
func RunExec(stateDir string, x Exec, stdin, stdout, stderr, tty *os.File) (int, error) {
	conn, err := Dial(stateDir)
	if err != nil {
		return 0, err
	}
	defer func() { _ = conn.Close() }()
	if err := WriteJSON(conn, KindHello, Hello{Role: RoleExec, Cwd: x.Cwd, Pid: os.Getpid()}); err != nil {
		return 0, fmt.Errorf("greet the session: %w", err)
	}
	files := []*os.File{stdin, stdout, stderr}
	x.TTY = tty != nil
	if tty != nil {
		files = append(files, tty)
	}
	if err := sendFiles(conn, files...); err != nil {
		return 0, err
	}
	if err := WriteJSON(conn, KindExec, x); err != nil {
		return 0, fmt.Errorf("send the command to the session: %w", err)
	}
	ints := make(chan os.Signal, 2)
	signal.Notify(ints, syscall.SIGINT)
	defer signal.Stop(ints)
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := readExit(conn)
		done <- result{code, err}
	}()
	cancelled := false
	for {
		select {
		case r := <-done:
			if cancelled && r.err == nil {
				r.code = 130 // interrupted, as a command ended by ctrl+c
			}
			return r.code, r.err
		case <-ints:
			if cancelled {
				return 130, nil
			}
			cancelled = true
			if err := WriteFrame(conn, KindCancel, nil); err != nil {
				return 130, nil // the session is gone: nothing runs
			}
		}
	}
}

// sendFiles writes the KindFiles frame with files attached.
func sendFiles(conn *net.UnixConn, files ...*os.File) error {
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	frame := []byte{byte(KindFiles), 0, 0, 0, 1, byte(len(fds))}
	if _, _, err := conn.WriteMsgUnix(frame, unix.UnixRights(fds...), nil); err != nil {
		return fmt.Errorf("pass the command's files to the session: %w", err)
	}
	return nil
}

// readExit reads frames until the command's exit status.
func readExit(conn *net.UnixConn) (int, error) {
	for {
		k, p, err := ReadFrame(conn)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, errors.New("the session hung up before the command ended; run vouch sessions to see whether it still runs")
			}
			return 0, fmt.Errorf("read the command's end from the session: %w", err)
		}
		switch k {
		case KindExit:
			var x Exit
			if err := decode(k, p, &x); err != nil {
				return 0, err
			}
			return x.Code, nil
		case KindBye:
			var b Bye
			if err := decode(k, p, &b); err != nil {
				return 0, err
			}
			return 0, &ByeError{Bye: b}
		}
	}
}
