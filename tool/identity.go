package tool

import "strings"

// Identity prefixes (SPEC C1).
const (
	// BuiltinPrefix starts the identity of a tool vouch itself provides:
	// "builtin:fs_read".
	BuiltinPrefix = "builtin:"
	// MCPPrefix starts the identity of a tool an MCP server provides:
	// "mcp:<serverUUID>:<toolName>".
	MCPPrefix = "mcp:"
)

// Label names whose tool an identity is: "builtin" for vouch's own tools,
// the server ID of an MCP tool, "other" for anything else.
func Label(identity string) string {
	if strings.HasPrefix(identity, BuiltinPrefix) {
		return "builtin"
	}
	if rest, ok := strings.CutPrefix(identity, MCPPrefix); ok {
		if server, _, ok := strings.Cut(rest, ":"); ok {
			return server
		}
	}
	return "other"
}

// IsWirePrefixWord reports whether w, a lower-case word of a tool name, is
// the word a provider's wire names start with ("mcp" of "mcp_search"). It
// says nothing about what the tool does, so matching on names skips it.
func IsWirePrefixWord(w string) bool { return w == strings.TrimSuffix(mcpWirePrefix, "_") }

// Name returns the tool's own name in an identity: "fs_read" of
// "builtin:fs_read", the server's name for an MCP tool, the identity itself
// for anything else. Wire names are built from it.
func Name(identity string) string {
	_, name := wireParts(identity)
	return name
}
