package mcptest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
)

// invalidToolList is the tools/list answer of Options.InvalidTools: two
// valid tools ("echo", and "longdesc" whose 10,000-character description
// carries escape sequences) among definitions a client must reject.
func invalidToolList() []any {
	obj := map[string]any{"type": "object"}
	wide := map[string]any{}
	for i := range 5000 {
		wide[fmt.Sprintf("p%d", i)] = map[string]any{}
	}
	return []any{
		map[string]any{"name": "echo", "description": "Echo the text back.", "inputSchema": map[string]any{
			"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		map[string]any{"name": "", "inputSchema": obj},
		map[string]any{"name": strings.Repeat("n", 10000), "inputSchema": obj},
		map[string]any{"name": "bad\x1b[31mname", "inputSchema": obj},
		map[string]any{"name": "rtl\u202etxt.exe", "inputSchema": obj},
		map[string]any{"name": "noschema"},
		map[string]any{"name": "stringschema", "inputSchema": "object"},
		map[string]any{"name": "arrayschema", "inputSchema": map[string]any{"type": "array"}},
		map[string]any{"name": "dup", "inputSchema": obj},
		map[string]any{"name": "dup", "inputSchema": obj},
		map[string]any{"name": "cyclic", "inputSchema": map[string]any{
			"type":       "object",
			"properties": map[string]any{"node": map[string]any{"$ref": "#/$defs/node"}},
			"$defs": map[string]any{"node": map[string]any{"type": "object",
				"properties": map[string]any{"child": map[string]any{"$ref": "#/$defs/node"}}}},
		}},
		map[string]any{"name": "selfref", "inputSchema": map[string]any{"type": "object",
			"properties": map[string]any{"again": map[string]any{"$ref": "#"}}}},
		map[string]any{"name": "remoteref", "inputSchema": map[string]any{"type": "object",
			"properties": map[string]any{"x": map[string]any{"$ref": "https://schemas.example/x.json"}}}},
		map[string]any{"name": "wide", "inputSchema": map[string]any{"type": "object", "properties": wide}},
		map[string]any{"name": "longdesc", "description": "\x1b[2J\x1b]0;pwned\x07" + strings.Repeat("d", 10000), "inputSchema": obj},
		42,
	}
}

// BlackHole accepts TCP connections on loopback and never answers: the
// server that hangs. Its methods are safe for concurrent use.
type BlackHole struct {
	// URL is an MCP endpoint on the black hole.
	URL string

	ln     net.Listener
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
	conns  []net.Conn
}

// NewBlackHole starts a black hole on 127.0.0.1 and a free port.
func NewBlackHole() (*BlackHole, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mcptest: listen on loopback: %w", err)
	}
	b := &BlackHole{URL: "http://" + ln.Addr().String() + "/mcp", ln: ln}
	b.wg.Add(1)
	go b.accept()
	return b, nil
}

func (b *BlackHole) accept() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return // closed
		}
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			if err := c.Close(); err != nil {
				return
			}
			return
		}
		b.conns = append(b.conns, c)
		b.wg.Add(1)
		b.mu.Unlock()
		go func() {
			defer b.wg.Done()
			// Read and discard the request forever; never answer. The copy
			// ends when Close closes the connection.
			if _, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, net.ErrClosed) {
				return
			}
		}()
	}
}

// Close stops listening and drops every connection.
func (b *BlackHole) Close() error {
	err := b.ln.Close()
	b.mu.Lock()
	b.closed = true
	for _, c := range b.conns {
		if cerr := c.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) && err == nil {
			err = cerr
		}
	}
	b.mu.Unlock()
	b.wg.Wait()
	return err
}
