package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// ToolNames are the tools the demo MCP server offers, in order: what the
// demo shows (and mcptest's default set).
func ToolNames() []string { return []string{"echo", "add", "lookup", "note"} }

// Tool returns the demo tool named name and its handler; ok is false for a
// name not in ToolNames. note records one note and returns how many there
// are.
//
//	echo {text}   returns text
//	add {a, b}    returns a+b
//	lookup {key}  annotated read-only and idempotent (a claim, nothing more)
//	note {text}   mutating: appends a note, returns the count
func Tool(name string, note func(string) int) (mcp.Tool, server.ToolHandlerFunc, bool) {
	text := func(t string) (*mcp.CallToolResult, error) { return mcp.NewToolResultText(t), nil }
	switch name {
	case "echo":
		return mcp.NewTool(name, mcp.WithDescription("Echo the text back."), mcp.WithString("text", mcp.Required(), mcp.Description("Text to echo."))),
			func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(r.GetString("text", ""))
			}, true
	case "add":
		return mcp.NewTool(name, mcp.WithDescription("Add two numbers."), mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
			func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(fmt.Sprint(r.GetFloat("a", 0) + r.GetFloat("b", 0)))
			}, true
	case "lookup":
		return mcp.NewTool(name, mcp.WithDescription("Look up a key. The server claims this is read-only; vouch asks anyway."),
				mcp.WithString("key", mcp.Required()), mcp.WithTitleAnnotation("Look up a key"),
				mcp.WithReadOnlyHintAnnotation(true), mcp.WithIdempotentHintAnnotation(true)),
			func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("value of " + r.GetString("key", ""))
			}, true
	case "note":
		return mcp.NewTool(name, mcp.WithDescription("Append a note (changes the server's state)."), mcp.WithString("text", mcp.Required())),
			func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(fmt.Sprintf("noted (%d notes)", note(r.GetString("text", ""))))
			}, true
	}
	return mcp.Tool{}, nil, false
}

// ToolServer is the demo's MCP server: a real mcp-go server over
// Streamable HTTP on a loopback port, offering ToolNames. It is safe for
// concurrent use.
type ToolServer struct {
	// URL is the MCP endpoint, http://127.0.0.1:<port>/mcp.
	URL string

	hs     *http.Server
	inner  *server.StreamableHTTPServer
	served chan struct{}

	mu    sync.Mutex
	notes []string
}

// NewToolServer starts the demo MCP server, named name, on 127.0.0.1 and a
// free port.
func NewToolServer(name string) (*ToolServer, error) {
	s := &ToolServer{served: make(chan struct{})}
	ms := server.NewMCPServer(name, "1.0.0", server.WithRecovery(), server.WithToolCapabilities(true))
	for _, n := range ToolNames() {
		t, h, _ := Tool(n, s.addNote)
		ms.AddTool(t, h)
	}
	s.inner = server.NewStreamableHTTPServer(ms, server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the demo MCP server on loopback: %w", err)
	}
	s.URL = "http://" + ln.Addr().String() + "/mcp"
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.inner)
	s.hs = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() {
		defer close(s.served)
		_ = s.hs.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

func (s *ToolServer) addNote(n string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, n)
	return len(s.notes)
}

// Close stops the server and drops its connections.
func (s *ToolServer) Close() error {
	err := s.hs.Close()
	<-s.served
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if shutErr := s.inner.Shutdown(ctx); shutErr != nil && err == nil {
		err = shutErr
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("stop the demo MCP server: %w", err)
	}
	return nil
}
