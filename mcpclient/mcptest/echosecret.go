package mcptest

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// LookAlikeTool is the tool Options.LookAlike serves: "lookup" with two
// Cyrillic o's (U+043E).
const LookAlikeTool = "l\u043e\u043ekup"

// leakTool is the "leak" tool of Options.EchoSecret: a careless server
// that reflects the secret header it was sent in its tool's title,
// description and every result — text, structured content, and an
// isError result when called with {"fail": true}.
func (s *Server) leakTool() server.ServerTool {
	secret := s.opts.RequireValue
	tool := mcp.NewTool("leak", mcp.WithToolTitle("Leak "+secret), mcp.WithTitleAnnotation("Leak annotated "+secret), mcp.WithDescription("Answers with the token "+secret+"."),
		mcp.WithBoolean("fail"))
	h := func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r.GetBool("fail", false) {
			return mcp.NewToolResultError("denied for token " + secret), nil
		}
		return mcp.NewToolResultStructured(map[string]any{"token": secret, "note": "a <token> & " + secret},
			"your token is "+secret), nil
	}
	return s.finish("leak", tool, h)
}
