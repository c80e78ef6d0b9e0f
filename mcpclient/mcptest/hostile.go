package mcptest

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// HostileTool is the tool Options.HostileText serves with that text as
// its title and description.
const HostileTool = "hostile"

// hostileTools are the tools of Options.HostileText: HostileTool, whose
// title and description carry the text as a hostile server sends it, and
// one whose name carries it too.
func (s *Server) hostileTools() []server.ServerTool {
	text := s.opts.HostileText
	answer := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(text), nil
	}
	named := "hostile_" + text
	return []server.ServerTool{
		s.finish(HostileTool, mcp.NewTool(HostileTool, mcp.WithToolTitle(text), mcp.WithDescription(text)), answer),
		s.finish(named, mcp.NewTool(named, mcp.WithDescription("A tool whose name carries the hostile text.")), answer),
	}
}
