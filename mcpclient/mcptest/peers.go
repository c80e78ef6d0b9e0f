package mcptest

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// What real peers did to vouch (issue 16), as tools and HTTP behaviours:
//
//	needs_input       a 2026-07-28 result asking for elicitation and sampling
//	                  (resultType "input_required" with inputRequests)
//	elicit            asks the client to elicit on the call's stream and waits
//	                  up to a minute for the answer (as mcp-go servers do);
//	                  Requests("elicit:decline") counts declines
//	sample            the same with sampling/createMessage
//	progress {ms}     sends progress notifications, then answers after ms
//	                  (or when cancelled: Requests("notifications/cancelled")
//	                  counts the client's cancellations)
//	blob_structured   a blob resource whose base64 is repeated in
//	                  structuredContent
//	dup_structured    text that is the structured content, serialized
//	task_required     execution.taskSupport "required": callable only as a task
//
// Options.EmptyDiscover answers server/discover with an empty result (as the
// conformance suite's mock answers every unknown method), Options.CheckHost
// refuses (HTTP 403) a Host header other than localhost (as Playwright MCP
// does) and ModeSSEOnly is a server that speaks only the older HTTP+SSE
// transport.

// PeerTools returns the names of the tools above.
func PeerTools() []string {
	return []string{"needs_input", "elicit", "sample", "progress", "blob_structured", "dup_structured", "task_required"}
}

// serverRequestWait is how long the elicit and sample tools wait for the
// client's answer, as mcp-go servers do by default.
const serverRequestWait = time.Minute

// peerTool returns the tool of PeerTools named name; ok is false for any
// other name.
func (s *Server) peerTool(name string) (mcp.Tool, server.ToolHandlerFunc, bool) {
	switch name {
	case "needs_input":
		return mcp.NewTool(name, mcp.WithDescription("Deploy, once the person confirms.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				r := &mcp.CallToolResult{Result: mcp.Result{ResultType: mcp.ResultTypeInputRequired}}
				r.InputRequests = mcp.InputRequests{
					"confirm": mcp.NewElicitationInputRequest(mcp.ElicitationParams{Message: "Deploy to production?",
						RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}}),
					"summary": mcp.NewSamplingInputRequest(mcp.CreateMessageParams{MaxTokens: 100,
						Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("Summarize the diff.")}}}),
				}
				r.RequestState = "state-1"
				return r, nil
			}, true
	case "elicit", "sample":
		return mcp.NewTool(name, mcp.WithDescription("Ask the client for input on the call's stream.")),
			func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				ctx, cancel := context.WithTimeout(ctx, serverRequestWait)
				defer cancel()
				ms := server.ServerFromContext(ctx)
				if ms == nil {
					return mcp.NewToolResultError("no server in context"), nil
				}
				var err error
				if name == "elicit" {
					var r *mcp.ElicitationResult
					r, err = ms.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Your name?",
						RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}})
					if err == nil && r.Action != mcp.ElicitationResponseActionAccept {
						s.count(s.requests, name+":"+string(r.Action))
						return mcp.NewToolResultError("the client answered " + string(r.Action)), nil
					}
				} else {
					//lint:ignore SA1019 servers still send it on legacy connections; vouch must refuse it.
					_, err = ms.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: mcp.CreateMessageParams{MaxTokens: 10,
						Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}}})
				}
				if err != nil {
					s.count(s.requests, name+":refused")
					return mcp.NewToolResultError("the client did not serve the request: " + err.Error()), nil
				}
				return mcp.NewToolResultText("the client answered"), nil
			}, true
	case "progress":
		return mcp.NewTool(name, mcp.WithDescription("Report progress, then answer."), mcp.WithNumber("ms")),
			func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if r.Params.Meta != nil && r.Params.Meta.ProgressToken != nil {
					s.count(s.requests, "progress:token")
					ms := server.ServerFromContext(ctx)
					for i := 1; i <= 3 && ms != nil; i++ {
						if err := ms.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
							"progressToken": r.Params.Meta.ProgressToken, "progress": i, "total": 3, "message": fmt.Sprintf("step %d\x1b[2J", i),
						}); err != nil {
							return nil, fmt.Errorf("mcptest: send progress: %w", err)
						}
					}
				}
				t := time.NewTimer(time.Duration(r.GetInt("ms", 0)) * time.Millisecond)
				defer t.Stop()
				select {
				case <-t.C:
					return mcp.NewToolResultText("done"), nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}, true
	case "blob_structured":
		return mcp.NewTool(name, mcp.WithDescription("Return a blob, and its base64 again as structured content.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				b64 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x00\x01binary", 300)))
				return &mcp.CallToolResult{
					Content: []mcp.Content{mcp.NewTextContent("the archive"),
						mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: "demo://a.bin", MIMEType: "application/octet-stream", Blob: b64}),
						mcp.NewImageContent(tinyPNG, "image/png")},
					StructuredContent: map[string]any{"name": "a.bin", "blob": b64, "nested": []any{map[string]any{"type": "image", "data": tinyPNG, "mimeType": "image/png"}}},
				}, nil
			}, true
	case "dup_structured":
		return mcp.NewTool(name, mcp.WithDescription("Return text and the same data as structured content.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				data := map[string]any{"city": "Oslo", "temperature": 4}
				return mcp.NewToolResultStructured(data, `{"city": "Oslo", "temperature": 4}`), nil
			}, true
	case "task_required":
		t := mcp.NewTool(name, mcp.WithDescription("Run a long job; callable only as a task."))
		t.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportRequired}
		return t, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("this tool must be called as a task"), nil
		}, true
	}
	return mcp.Tool{}, nil, false
}

// servePeerHTTP answers what Options.EmptyDiscover, Options.CheckHost and
// ModeSSEOnly change; it reports whether it answered.
func (s *Server) servePeerHTTP(w http.ResponseWriter, r *http.Request, peek rpcPeek) bool {
	switch {
	case s.opts.Mode == ModeSSEOnly:
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "event: endpoint\ndata: /messages?sessionId=1\n\n")
			return true
		}
		// An Express app without the route: 404 and a web page.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "<!DOCTYPE html><html><body><pre>Cannot POST /mcp</pre></body></html>")
		return true
	case s.opts.CheckHost && !strings.HasPrefix(r.Host, "localhost:"):
		http.Error(w, "Access is only allowed at localhost", http.StatusForbidden)
		return true
	case s.opts.EmptyDiscover && peek.Method == string(mcp.MethodServerDiscover):
		writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": peek.ID, "result": map[string]any{}})
		return true
	}
	return false
}
