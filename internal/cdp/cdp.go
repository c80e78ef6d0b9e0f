// Package cdp drives a headless Chromium through the Chrome DevTools
// Protocol, for end-to-end tests of what vouch serves to a browser (the MCP
// Apps viewer, SPEC J4). It owns a minimal WebSocket client (RFC 6455, the
// client half only: masked text frames out; text, continuation, ping and
// close frames in) so that no dependency is added for tests, and a session
// layer in flat mode that attaches to every frame target, so that
// cross-origin frames can be inspected too.
//
// It talks to loopback only: the browser is started with
// --remote-debugging-port=0 and its port read from DevToolsActivePort.
package cdp

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Flags returns the Chromium flags every test browser runs with.
func Flags() []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync"}
}

// Browser is a running Chromium with a DevTools connection.
type Browser struct {
	cmd  *exec.Cmd
	conn *wsConn

	mu       sync.Mutex
	nextID   int64
	waiting  map[int64]chan reply
	contexts []Context
	events   chan struct{} // closed and replaced on every event
	done     chan struct{}
	readErr  error
	stderr   *strings.Builder
}

// Context is a JavaScript execution context of some frame.
type Context struct {
	Session string
	ID      int64
	Origin  string
}

type reply struct {
	Result json.RawMessage
	Error  *struct {
		Message string `json:"message"`
	}
}

// Launch starts binary (e.g. "chromium") with Flags and a fresh profile in
// dir, and connects to it.
func Launch(ctx context.Context, binary, dir string) (*Browser, error) {
	args := append(Flags(), "--user-data-dir="+dir, "--remote-debugging-port=0", "about:blank")
	cmd := exec.Command(binary, args...)
	stderr := &strings.Builder{}
	cmd.Stderr = &lockedWriter{w: stderr}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", binary, err)
	}
	b := &Browser{cmd: cmd, waiting: map[int64]chan reply{}, events: make(chan struct{}), done: make(chan struct{}), stderr: stderr}
	port, path, err := activePort(ctx, dir)
	if err != nil {
		b.kill()
		return nil, err
	}
	conn, err := dialWS(ctx, "127.0.0.1:"+port, path)
	if err != nil {
		b.kill()
		return nil, err
	}
	b.conn = conn
	go b.read()
	return b, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// activePort waits for Chromium to write DevToolsActivePort.
func activePort(ctx context.Context, dir string) (port, path string, err error) {
	file := filepath.Join(dir, "DevToolsActivePort")
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(file); err == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) == 2 {
				return strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1]), nil
			}
		}
		select {
		case <-ctx.Done():
			return "", "", fmt.Errorf("chromium wrote no DevToolsActivePort: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

func (b *Browser) kill() {
	if b.cmd.Process != nil {
		_ = b.cmd.Process.Kill()
		_ = b.cmd.Wait()
	}
}

// Close ends the browser.
func (b *Browser) Close() {
	if b.conn != nil {
		_ = b.conn.c.Close()
	}
	b.kill()
}

// Stderr returns what the browser wrote to stderr so far.
func (b *Browser) Stderr() string {
	lw := b.cmd.Stderr.(*lockedWriter)
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return b.stderr.String()
}

// read dispatches replies and records execution contexts; on a new
// target it enables Runtime and auto-attachment there too.
func (b *Browser) read() {
	defer close(b.done)
	for {
		data, err := b.conn.readMessage()
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			for _, ch := range b.waiting {
				close(ch)
			}
			b.waiting = map[int64]chan reply{}
			b.mu.Unlock()
			return
		}
		var msg struct {
			ID        int64           `json:"id"`
			Method    string          `json:"method"`
			Params    json.RawMessage `json:"params"`
			SessionID string          `json:"sessionId"`
			reply
		}
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		if msg.ID != 0 {
			b.mu.Lock()
			ch := b.waiting[msg.ID]
			delete(b.waiting, msg.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- msg.reply
			}
			continue
		}
		switch msg.Method {
		case "Target.attachedToTarget":
			var p struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				go b.prepare(p.SessionID)
			}
		case "Runtime.executionContextCreated":
			var p struct {
				Context struct {
					ID     int64  `json:"id"`
					Origin string `json:"origin"`
				} `json:"context"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				b.mu.Lock()
				b.contexts = append(b.contexts, Context{Session: msg.SessionID, ID: p.Context.ID, Origin: p.Context.Origin})
				b.mu.Unlock()
			}
		case "Runtime.executionContextDestroyed":
			var p struct {
				ID int64 `json:"executionContextId"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				b.mu.Lock()
				kept := b.contexts[:0]
				for _, c := range b.contexts {
					if !(c.Session == msg.SessionID && c.ID == p.ID) {
						kept = append(kept, c)
					}
				}
				b.contexts = kept
				b.mu.Unlock()
			}
		}
		b.mu.Lock()
		close(b.events)
		b.events = make(chan struct{})
		b.mu.Unlock()
	}
}

// prepare enables what the tests need on a newly attached target.
func (b *Browser) prepare(session string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = b.Call(ctx, session, "Target.setAutoAttach", map[string]any{"autoAttach": true, "waitForDebuggerOnStart": false, "flatten": true})
	_, _ = b.Call(ctx, session, "Runtime.enable", nil)
	_, _ = b.Call(ctx, session, "Runtime.runIfWaitingForDebugger", nil)
}

// Call sends one command (in session, "" for the browser) and waits for
// its result.
func (b *Browser) Call(ctx context.Context, session, method string, params any) (json.RawMessage, error) {
	if params == nil {
		params = map[string]any{}
	}
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan reply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if err := b.conn.writeText(data); err != nil {
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: the DevTools connection closed: %v", method, b.readErr)
		}
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		return r.Result, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Open creates a page at url, attached in flat mode, with every frame
// target attached as it appears.
func (b *Browser) Open(ctx context.Context, url string) error {
	if _, err := b.Call(ctx, "", "Target.setDiscoverTargets", map[string]any{"discover": true}); err != nil {
		return err
	}
	res, err := b.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		return err
	}
	var t struct {
		TargetID string `json:"targetId"`
	}
	if err := json.Unmarshal(res, &t); err != nil {
		return err
	}
	res, err = b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true})
	if err != nil {
		return err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &s); err != nil {
		return err
	}
	b.prepare(s.SessionID)
	if _, err := b.Call(ctx, s.SessionID, "Page.enable", nil); err != nil {
		return err
	}
	_, err = b.Call(ctx, s.SessionID, "Page.navigate", map[string]any{"url": url})
	return err
}

// Contexts returns the execution contexts known now.
func (b *Browser) Contexts() []Context {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Context(nil), b.contexts...)
}

// Eval evaluates expr in c and returns its value as JSON.
func (b *Browser) Eval(ctx context.Context, c Context, expr string) (json.RawMessage, error) {
	res, err := b.Call(ctx, c.Session, "Runtime.evaluate", map[string]any{
		"expression": expr, "contextId": c.ID, "returnByValue": true, "awaitPromise": true,
	})
	if err != nil {
		return nil, err
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	if r.ExceptionDetails != nil {
		return nil, fmt.Errorf("evaluate: %s", r.ExceptionDetails.Text)
	}
	return r.Result.Value, nil
}

// WaitFor evaluates expr in every context, after every DevTools event,
// until one returns a value that is not null, false or "", and returns
// that value and the context.
func (b *Browser) WaitFor(ctx context.Context, expr string) (json.RawMessage, Context, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		b.mu.Lock()
		events := b.events
		b.mu.Unlock()
		for _, c := range b.Contexts() {
			ectx, cancel := context.WithTimeout(ctx, 2*time.Second)
			v, err := b.Eval(ectx, c, expr)
			cancel()
			if err == nil && len(v) > 0 && string(v) != "null" && string(v) != "false" && string(v) != `""` {
				return v, c, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, Context{}, fmt.Errorf("waiting for %s: %w", expr, ctx.Err())
		case <-b.done:
			return nil, Context{}, errors.New("the browser's DevTools connection closed")
		case <-events:
		case <-tick.C: // the page changes without DevTools events too
		}
	}
}

// wsConn is the client half of a WebSocket connection.
type wsConn struct {
	c  net.Conn
	r  *bufio.Reader
	mu sync.Mutex // serializes writes
}

// dialWS opens a WebSocket to ws://addr/path.
func dialWS(ctx context.Context, addr, path string) (*wsConn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial DevTools: %w", err)
	}
	kb := make([]byte, 16)
	if _, err := rand.Read(kb); err != nil {
		_ = c.Close()
		return nil, err
	}
	key := base64.StdEncoding.EncodeToString(kb)
	req := "GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		_ = c.Close()
		return nil, err
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("DevTools handshake: %w", err)
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		_ = c.Close()
		return nil, fmt.Errorf("DevTools handshake refused: %s", resp.Status)
	}
	return &wsConn{c: c, r: r}, nil
}

// writeText sends one masked text frame.
func (w *wsConn) writeText(p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeFrame(0x1, p)
}

func (w *wsConn) writeFrame(op byte, p []byte) error {
	hdr := []byte{0x80 | op}
	switch n := len(p); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	mask := make([]byte, 4)
	if _, err := rand.Read(mask); err != nil {
		return err
	}
	hdr = append(hdr, mask...)
	body := make([]byte, len(p))
	for i := range p {
		body[i] = p[i] ^ mask[i%4]
	}
	_, err := w.c.Write(append(hdr, body...))
	return err
}

// readMessage returns the next complete text message, answering pings.
func (w *wsConn) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(w.r, e[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(w.r, e[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(e[:])
		}
		if n > 256<<20 {
			return nil, errors.New("a DevTools frame is larger than 256 MiB")
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(w.r, mask[:]); err != nil {
				return nil, err
			}
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(w.r, p); err != nil {
			return nil, err
		}
		if h[1]&0x80 != 0 {
			for i := range p {
				p[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			return nil, io.EOF
		case 0x9:
			w.mu.Lock()
			err := w.writeFrame(0xA, p)
			w.mu.Unlock()
			if err != nil {
				return nil, err
			}
			continue
		case 0xA:
			continue
		}
		msg = append(msg, p...)
		if fin {
			return msg, nil
		}
	}
}
