package skills

import (
	"bytes"
	"path"
	"strings"
)

// MCP client configuration (SPEC G6; issue 25 item 3): a file that
// configures an MCP client is left out whole, by its name or, for a
// configuration format, by its mcpServers key; a configuration written
// out in another kept file is stripped as a whole — the object, the YAML
// block or the TOML tables — so that a finding says "stripped" only when
// nothing of the configuration is left.

// mcpConfigNames are the file names MCP clients read their servers from;
// mcpConfigPaths the ones that count only in their folder.
var (
	mcpConfigNames = set(".mcp.json", "mcp.json", "claude_desktop_config.json", "mcp_config.json", "cline_mcp_settings.json",
		"mcp_settings.json", "mcp-servers.json", "mcp_servers.json", ".mcp.yaml", ".mcp.yml", "mcp.yaml", "mcp.yml", "mcp.toml")
	mcpConfigPaths = []string{".gemini/settings.json", ".codex/config.toml", ".continue/config.json", ".continue/config.yaml",
		".zed/settings.json", ".codeium/windsurf/mcp_config.json", ".amazonq/mcp.json", ".kiro/settings/mcp.json"}
	configExt = set("json", "jsonc", "json5", "yaml", "yml", "toml")
)

// mcpConfigName reports a file an MCP client reads by its name.
func mcpConfigName(name string) bool {
	low := strings.ToLower(name)
	if mcpConfigNames[path.Base(low)] {
		return true
	}
	for _, p := range mcpConfigPaths {
		if low == p || strings.HasSuffix(low, "/"+p) {
			return true
		}
	}
	return false
}

// mcpConfigContent reports a configuration-format file that configures MCP
// servers: a JSON, YAML or TOML file with an mcpServers (mcp_servers,
// context_servers) key.
func mcpConfigContent(name string, data []byte) bool {
	ext := strings.ToLower(path.Ext(name))
	if ext == "" || !configExt[ext[1:]] {
		return false
	}
	low := asciiLower(data)
	for _, key := range []string{"mcpservers", "mcp_servers", "mcp-servers", "context_servers"} {
		for off := 0; ; {
			i := bytes.Index(low[off:], []byte(key))
			if i < 0 {
				break
			}
			i += off
			rest := bytes.TrimLeft(low[i+len(key):], "\"' \t")
			if len(rest) > 0 && (rest[0] == ':' || rest[0] == '=' || rest[0] == '.' || rest[0] == ']') {
				return true
			}
			off = i + len(key)
		}
	}
	return false
}

// maxMCPObject bounds how far a configuration's end is looked for; past it,
// or when it does not end, everything to the end of the file is stripped.
const maxMCPObject = 256 << 10

// mcpExtent returns where the MCP configuration whose check fired at p
// ends (the end of its last line), for a configuration outside a fenced
// block: the value after an mcpServers key (a JSON object or array, a YAML
// block, TOML tables), the outermost object around "command" and "args", or an
// install command with its continuation lines. When no end is found it is
// the end of the file.
func (s *scanner) mcpExtent(c *check, p int) (start, end int) {
	start = s.start
	switch c.code {
	case "mcp-install":
		return start, p + len(s.command(p))
	case "mcp-command":
		open := enclosingBrace(s.data, p)
		if open < 0 {
			return start, len(s.data)
		}
		// The outermost object: the servers beside this one (a remote
		// server's URL and headers) go with it.
		for o := enclosingBrace(s.data, open); o >= 0; o = enclosingBrace(s.data, open) {
			open = o
		}
		start = bytes.LastIndexByte(s.data[:open], '\n') + 1
		return start, s.lineEndAt(matchBrace(s.data, open))
	}
	// mcp-config: what follows the key.
	i := p
	for i < len(s.data) && i < p+64 && s.data[i] != '{' && s.data[i] != '[' && s.data[i] != '\n' {
		i++
	}
	switch {
	case i < len(s.data) && (s.data[i] == '{' || s.data[i] == '[') && !tomlHeader(s.data[s.start:s.end]):
		return start, s.lineEndAt(matchBrace(s.data, i))
	case tomlHeader(s.data[s.start:s.end]):
		return start, s.tomlTablesEnd()
	}
	return start, s.yamlBlockEnd()
}

// lineEndAt returns the end of the line holding offset q, or the end of
// the file for q < 0.
func (s *scanner) lineEndAt(q int) int {
	if q < 0 {
		return len(s.data)
	}
	if nl := bytes.IndexByte(s.data[q:], '\n'); nl >= 0 {
		return q + nl
	}
	return len(s.data)
}

// matchBrace returns the offset of the bracket closing the one at open,
// skipping JSON strings, or -1 within maxMCPObject.
func matchBrace(data []byte, open int) int {
	depth, inStr := 0, false
	for i := open; i < len(data) && i < open+maxMCPObject; i++ {
		c := data[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// enclosingBrace returns the offset of the '{' that opens the object
// holding p, counting brackets back (strings are not told apart going
// backwards; a quoted brace at worst widens what is stripped), or -1.
func enclosingBrace(data []byte, p int) int {
	depth := 0
	for i := p - 1; i >= 0 && i > p-maxMCPObject; i-- {
		switch data[i] {
		case '}', ']':
			depth++
		case '[':
			depth--
		case '{':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// lineEnd is where the line starting at off ends: its newline, or the
// end of the data.
func (s *scanner) lineEnd(off int) int {
	if e := bytes.IndexByte(s.data[off:], '\n'); e >= 0 {
		return off + e
	}
	return len(s.data)
}

// tomlHeader reports a line that is a TOML table header.
func tomlHeader(line []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("["))
}

// tomlTablesEnd returns the end of the last line before the first table
// header, after the current line, that is not an MCP server's.
func (s *scanner) tomlTablesEnd() int {
	end := s.end
	for off := s.end + 1; off < len(s.data); {
		e := s.lineEnd(off)
		line := s.data[off:e]
		if tomlHeader(line) && !bytes.Contains(asciiLower(line), []byte("mcp_servers")) {
			return end
		}
		end = e
		off = e + 1
	}
	return len(s.data)
}

// yamlBlockEnd returns the end of the last line indented deeper than the
// current one (blank lines inside the block included, not after it).
func (s *scanner) yamlBlockEnd() int {
	indent := len(s.data[s.start:s.end]) - len(bytes.TrimLeft(s.data[s.start:s.end], " \t"))
	end := s.end
	for off := s.end + 1; off < len(s.data); {
		e := s.lineEnd(off)
		line := s.data[off:e]
		t := bytes.TrimLeft(line, " \t")
		if len(bytes.TrimSpace(line)) > 0 {
			if len(line)-len(t) <= indent && !bytes.HasPrefix(t, []byte("- ")) {
				return end
			}
			end = e
		}
		off = e + 1
	}
	return end
}
