package mcptest

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// catalogTools returns n generated tools shaped like a real catalog's
// (GitHub's MCP server lists 117): names repo_op_001…, a description of a
// few sentences whose length varies with the index, so their token costs
// differ, and three parameters. Each answers with its name and arguments.
func catalogTools(n int) []server.ServerTool {
	tools := make([]server.ServerTool, 0, n)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("repo_op_%03d", i)
		desc := fmt.Sprintf("Operation %d on a repository: ", i) +
			strings.Repeat("reads or changes issues, pull requests, branches and files of the repository it is given; ", 1+i%7)
		t := mcp.NewTool(name, mcp.WithDescription(desc),
			mcp.WithString("owner", mcp.Required(), mcp.Description("The owner of the repository.")),
			mcp.WithString("repo", mcp.Required(), mcp.Description("The name of the repository.")),
			mcp.WithString("query", mcp.Description("What to look for or change.")))
		tools = append(tools, server.ServerTool{Tool: t, Handler: func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(name + " " + fmt.Sprint(r.GetArguments())), nil
		}})
	}
	return tools
}
