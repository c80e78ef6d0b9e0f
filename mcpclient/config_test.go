package mcpclient

import (
	"errors"
	"strings"
	"testing"
)

// oneSentence checks that msg reads as a single sentence saying what to do.
func oneSentence(t *testing.T, msg string) {
	t.Helper()
	if msg == "" || strings.ContainsAny(msg, "\n\r") || !strings.HasSuffix(msg, ".") {
		t.Errorf("message %q is not one sentence ending with a period", msg)
	}
	if asClause(msg) != msg { // it follows the caller's words (issue 28 item 15)
		t.Errorf("message %q starts with a capital, which reads mid-sentence after the caller's %q", msg, "could not save the server: ")
	}
}

// TestValidate covers SPEC B1 (https except loopback), B2 (a name is
// required) and B4 (stdio is unsupported), plus malformed input.
func TestValidate(t *testing.T) {
	base := NewServerConfig("docs", "https://mcp.example.com/mcp", "")
	tests := []struct {
		name  string
		edit  func(*ServerConfig)
		want  error // nil: valid
		field string
	}{
		{"https remote", func(*ServerConfig) {}, nil, ""},
		{"http loopback v4", func(c *ServerConfig) { c.URL = "http://127.0.0.1:8080/mcp" }, nil, ""},
		{"http loopback 127/8", func(c *ServerConfig) { c.URL = "http://127.9.8.7/mcp" }, nil, ""},
		{"http loopback v6", func(c *ServerConfig) { c.URL = "http://[::1]:3000/mcp" }, nil, ""},
		{"http localhost", func(c *ServerConfig) { c.URL = "http://LOCALHOST:3000/mcp" }, nil, ""},
		{"header ok", func(c *ServerConfig) { c.HeaderName = "X-API-Key" }, nil, ""},
		{"no name", func(c *ServerConfig) { c.Name = "  " }, ErrInvalidConfig, "name"},
		{"control chars in name", func(c *ServerConfig) { c.Name = "evil\x1b[2J" }, ErrInvalidConfig, "name"},
		{"long name", func(c *ServerConfig) { c.Name = strings.Repeat("n", 65) }, ErrInvalidConfig, "name"},
		{"no id", func(c *ServerConfig) { c.ID = "" }, ErrInvalidConfig, "id"},
		{"empty url", func(c *ServerConfig) { c.URL = "" }, ErrInvalidConfig, "url"},
		{"http remote", func(c *ServerConfig) { c.URL = "http://mcp.example.com/mcp" }, ErrInvalidConfig, "url"},
		{"http lookalike", func(c *ServerConfig) { c.URL = "http://localhost.example.com/mcp" }, ErrInvalidConfig, "url"},
		{"http private address", func(c *ServerConfig) { c.URL = "http://10.0.0.5/mcp" }, ErrInvalidConfig, "url"},
		{"websocket", func(c *ServerConfig) { c.URL = "wss://mcp.example.com/mcp" }, ErrInvalidConfig, "url"},
		{"no scheme host", func(c *ServerConfig) { c.URL = "mcp.example.com/mcp" }, ErrInvalidConfig, "url"},
		{"malformed", func(c *ServerConfig) { c.URL = "https://[::1" }, ErrInvalidConfig, "url"},
		{"bad port", func(c *ServerConfig) { c.URL = "https://mcp.example.com:99999/mcp" }, ErrInvalidConfig, "url"},
		{"no host", func(c *ServerConfig) { c.URL = "https:///mcp" }, ErrInvalidConfig, "url"},
		{"credentials in url", func(c *ServerConfig) { c.URL = "https://user:pw@mcp.example.com/mcp" }, ErrInvalidConfig, "url"},
		{"control chars in url", func(c *ServerConfig) { c.URL = "https://mcp.example.com/\x1b[31m" }, ErrInvalidConfig, "url"},
		{"too long", func(c *ServerConfig) { c.URL = "https://mcp.example.com/" + strings.Repeat("a", 3000) }, ErrInvalidConfig, "url"},
		{"npx command", func(c *ServerConfig) { c.URL = "npx -y @modelcontextprotocol/server-everything" }, ErrStdioUnsupported, "url"},
		{"bare command", func(c *ServerConfig) { c.URL = "uvx mcp-server-fetch" }, ErrStdioUnsupported, "url"},
		{"absolute path", func(c *ServerConfig) { c.URL = "/usr/local/bin/mcp-server" }, ErrStdioUnsupported, "url"},
		{"relative path", func(c *ServerConfig) { c.URL = "./server.py" }, ErrStdioUnsupported, "url"},
		{"stdio scheme", func(c *ServerConfig) { c.URL = "stdio:///usr/bin/server" }, ErrStdioUnsupported, "url"},
		{"file scheme", func(c *ServerConfig) { c.URL = "file:///tmp/server" }, ErrStdioUnsupported, "url"},
		{"windows path", func(c *ServerConfig) { c.URL = `C:\tools\server.exe` }, ErrStdioUnsupported, "url"},
		{"header with space", func(c *ServerConfig) { c.HeaderName = "X Api" }, ErrInvalidConfig, "header"},
		{"reserved header", func(c *ServerConfig) { c.HeaderName = "mcp-session-id" }, ErrInvalidConfig, "header"},
		{"header injection", func(c *ServerConfig) { c.HeaderName = "X-Key\r\nEvil: 1" }, ErrInvalidConfig, "header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			tt.edit(&cfg)
			err := cfg.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Validate() = %v, want %v", err, tt.want)
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tt.field {
				t.Fatalf("Validate() = %#v, want a ConfigError on field %q", err, tt.field)
			}
			oneSentence(t, err.Error())
		})
	}
}

func TestStdioMessage(t *testing.T) {
	_, err := ParseEndpoint("npx mcp-server")
	if err == nil || !strings.HasPrefix(err.Error(), "stdio servers are not supported in this release") {
		t.Fatalf("got %v, want the stdio sentence", err)
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "127.255.0.9": true, "::1": true, "[::1]": true,
		"::ffff:127.0.0.1": true, "0.0.0.0": false, "10.1.2.3": false, "example.com": false,
		"localhost.example.com": false, "": false, "127.0.0.1.nip.io": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
