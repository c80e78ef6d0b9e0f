package mcptest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// What real peers did to vouch in the second round (issue 24), as tools
// and HTTP behaviours:
//
//	evaluate          a definition full of '<', '>', '&', U+2028 and non-ASCII
//	                  text, as Playwright MCP's browser_evaluate ("() => { … }")
//	read_text_file    {bytes} text, and structured content {"content": text},
//	                  as server-filesystem sends a file
//	read_graph        a JSON array as text, and structured content
//	                  {"entities": that array}, as server-memory sends a graph
//	vanish            the call's event stream ends without an answer, as a
//	                  server that crashed mid-call behind a proxy leaves it
//
// Options.InitDelay answers initialize (and server/discover) late, as
// FastMCP and supergateway do (1–3 s): slow, but healthy.

// Peer2Tools returns the names of the tools above.
func Peer2Tools() []string { return []string{"evaluate", "read_text_file", "read_graph", "vanish"} }

// HTMLDescription is the description of the evaluate tool.
const HTMLDescription = "Evaluate JavaScript on the page: `() => { /* code */ }` or `(element) => { … }` when a < b && c > d;\u2028next\u2029 — café, 日本語, 🙂."

// GraphEntities is the array read_graph answers, as text and as the
// single member of its structured content.
const GraphEntities = `[{"name":"vouch","entityType":"project","observations":["nothing approves itself"]}]`

// peer2Tool returns the tool of Peer2Tools named name; ok is false for any
// other name (vanish is answered by the HTTP layer: servePeer2HTTP).
func (s *Server) peer2Tool(name string) (mcp.Tool, server.ToolHandlerFunc, bool) {
	switch name {
	case "evaluate":
		t := mcp.NewTool(name, mcp.WithToolTitle("Evaluate <JS> & more"), mcp.WithDescription(HTMLDescription),
			mcp.WithString("function", mcp.Description("() => { /* code */ } or (element) => { … } <b>&amp;</b> \u2028 é")))
		return t, func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("evaluated " + r.GetString("function", "")), nil
		}, true
	case "read_text_file":
		return mcp.NewTool(name, mcp.WithDescription("Read a text file."), mcp.WithNumber("bytes")),
			func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				n := min(max(r.GetInt("bytes", 20000), 0), 1<<20)
				text := strings.Repeat("line of the file\n", n/17+1)[:n]
				return mcp.NewToolResultStructured(map[string]any{"content": text}, text), nil
			}, true
	case "read_graph":
		return mcp.NewTool(name, mcp.WithDescription("Read the knowledge graph.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var entities any
				if err := json.Unmarshal([]byte(GraphEntities), &entities); err != nil {
					return nil, err
				}
				return mcp.NewToolResultStructured(map[string]any{"entities": entities}, "  "+GraphEntities+"\n"), nil
			}, true
	case "vanish":
		return mcp.NewTool(name, mcp.WithDescription("Start a job; the server dies before it answers.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("never sent"), nil
			}, true
	}
	return mcp.Tool{}, nil, false
}

// servePeer2HTTP answers what Options.InitDelay and the vanish tool
// change; it reports whether it answered.
func (s *Server) servePeer2HTTP(w http.ResponseWriter, r *http.Request, peek rpcPeek) bool {
	s.mu.Lock()
	d := s.initDelay
	s.mu.Unlock()
	if d > 0 && (peek.Method == string(mcp.MethodInitialize) || peek.Method == string(mcp.MethodServerDiscover)) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return true
		}
	}
	if peek.Method == string(mcp.MethodToolsCall) && peek.Params.Name == "vanish" {
		s.count(s.calls, "vanish")
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, ": working\n\n") // then the process is gone
		return true
	}
	return false
}

// SetInitDelay makes initialize and server/discover answer d late from now
// on (Options.InitDelay): a server that was quick turns slow.
func (s *Server) SetInitDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initDelay = d
}
