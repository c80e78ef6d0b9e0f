package mcpclient

import (
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// ServerConfig is the non-secret configuration of one remote MCP server
// (SPEC B1). It is what the store persists; the secret header value is kept
// in the keyring under ID and reaches this package only through a
// SecretSource or the secret argument of Test.
type ServerConfig struct {
	// ID is the server's stable identity, a UUID. Tool identities embed it
	// (SPEC C1), so it never changes, even when Name or URL do.
	ID string `json:"id"`
	// Name is the person's label for the server. A server cannot be tested
	// without one (SPEC B2).
	Name string `json:"name"`
	// URL is the Streamable HTTP endpoint: https, or http for loopback only.
	URL string `json:"url"`
	// HeaderName optionally names one header (e.g. "Authorization") whose
	// value is the server's secret.
	HeaderName string `json:"header_name,omitempty"`
	// Active reports whether the server's tools may be offered. Testing never
	// sets it; activation is a separate step (SPEC B2).
	Active bool `json:"active"`
	// CallTimeout bounds each tool call of this server; zero means the
	// Manager's Options.CallTimeout (SPEC B11). Between MinCallTimeout and
	// MaxCallTimeout.
	CallTimeout time.Duration `json:"call_timeout,omitempty"`
}

// Bounds of ServerConfig.CallTimeout.
const (
	MinCallTimeout = time.Second
	MaxCallTimeout = time.Hour
)

// Bounds on configuration fields.
const (
	maxServerNameLen = 64
	maxURLLen        = 2048
	maxHeaderNameLen = 64
)

// NewServerConfig returns an inactive configuration with a fresh stable ID.
func NewServerConfig(name, rawURL, headerName string) ServerConfig {
	return ServerConfig{ID: uuid.NewString(), Name: strings.TrimSpace(name), URL: strings.TrimSpace(rawURL), HeaderName: strings.TrimSpace(headerName)}
}

// Validate checks the configuration. Each error is a *ConfigError wrapping
// ErrInvalidConfig (or ErrStdioUnsupported) whose message is one sentence
// saying what to do.
func (c ServerConfig) Validate() error {
	if _, err := uuid.Parse(c.ID); err != nil {
		return cfgErr("id", "Create the server with a fresh identity (its ID must be a UUID).")
	}
	if err := validateName(c.Name); err != nil {
		return err
	}
	if _, err := ParseEndpoint(c.URL); err != nil {
		return err
	}
	if c.CallTimeout != 0 && (c.CallTimeout < MinCallTimeout || c.CallTimeout > MaxCallTimeout) {
		return cfgErr("call_timeout", "Use a call timeout between 1s and 1h.")
	}
	return validateHeaderName(c.HeaderName)
}

func cfgErr(field, sentence string) *ConfigError {
	return &ConfigError{Field: field, Sentence: sentence, Kind: ErrInvalidConfig}
}

func validateName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return cfgErr("name", "Give the server a name before testing or activating it.")
	case !utf8.ValidString(name) || neutralize(name) != name || strings.ContainsAny(name, "\n\t"):
		return cfgErr("name", "Use a server name without control characters.")
	case utf8.RuneCountInString(name) > maxServerNameLen:
		return cfgErr("name", "Use a server name of at most 64 characters.")
	}
	return nil
}

// reservedHeaders are headers the transport sets itself; a secret under one
// of these names would be overwritten or would break the protocol.
var reservedHeaders = map[string]bool{
	"Accept": true, "Content-Type": true, "Content-Length": true, "Host": true,
	"Connection": true, "Transfer-Encoding": true, "Mcp-Session-Id": true,
	"Mcp-Protocol-Version": true, "Mcp-Method": true, "Mcp-Name": true,
	"Last-Event-Id": true,
}

func validateHeaderName(h string) error {
	if h == "" {
		return nil
	}
	if len(h) > maxHeaderNameLen {
		return cfgErr("header", "Use a secret header name of at most 64 characters, such as Authorization or X-API-Key.")
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return cfgErr("header", "Use a secret header name of letters, digits and dashes, such as Authorization or X-API-Key.")
		}
	}
	if reservedHeaders[canonicalHeader(h)] {
		return cfgErr("header", "Choose another secret header name: "+canonicalHeader(h)+" is set by the MCP transport itself.")
	}
	return nil
}

func canonicalHeader(h string) string {
	parts := strings.Split(strings.ToLower(h), "-")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "-")
}

// stdioPrefixes are how local commands tend to be pasted into an endpoint
// field: launchers and interpreters.
var stdioPrefixes = []string{"npx", "uvx", "uv", "node", "python", "python3", "deno", "bun", "docker", "podman", "java", "go", "cargo", "pipx", "sh", "bash"}

// looksLikeCommand reports whether s reads as a local command or path
// rather than a URL.
func looksLikeCommand(s string) bool {
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "stdio:") || strings.HasPrefix(lower, "file:") || strings.HasPrefix(lower, "unix:") {
		return true
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, `\`) || (len(s) > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/')) {
		return true
	}
	first, _, _ := strings.Cut(lower, " ")
	for _, p := range stdioPrefixes {
		if first == p {
			return true
		}
	}
	return !strings.Contains(s, "://") && strings.ContainsAny(strings.TrimSpace(s), " \t")
}

// ParseEndpoint checks an endpoint URL (SPEC B1, B4) and returns it parsed.
// Errors are *ConfigError values, one sentence each.
func ParseEndpoint(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return nil, cfgErr("url", "Enter the server's Streamable HTTP endpoint, such as https://mcp.example.com/mcp.")
	case len(raw) > maxURLLen:
		return nil, cfgErr("url", "Use an endpoint URL of at most 2048 characters.")
	case looksLikeCommand(raw):
		return nil, &ConfigError{Field: "url", Kind: ErrStdioUnsupported,
			Sentence: "stdio servers are not supported in this release; run the server with a Streamable HTTP endpoint and enter its https:// URL."}
	case neutralize(raw) != raw || strings.ContainsAny(raw, " \t\n"):
		return nil, cfgErr("url", "Remove spaces and control characters from the endpoint URL.")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, cfgErr("url", "Enter a well-formed URL, such as https://mcp.example.com/mcp.")
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "https" && scheme != "http":
		return nil, cfgErr("url", "Use an https:// URL (plain http:// is accepted only for loopback addresses).")
	case u.Opaque != "" || u.Hostname() == "":
		return nil, cfgErr("url", "Enter the URL with a host, such as https://mcp.example.com/mcp.")
	case u.User != nil:
		return nil, cfgErr("url", "Remove the user name and password from the URL and put the secret in the secret header instead.")
	case urlCredential(u) != "":
		return nil, cfgErr("url", urlCredential(u))
	case u.Port() != "" && !validPort(u.Port()):
		return nil, cfgErr("url", "Use a port between 1 and 65535 in the URL.")
	case scheme == "http" && !IsLoopbackHost(u.Hostname()):
		return nil, cfgErr("url", "Use https:// for a remote server; plain http:// is accepted only for loopback addresses (127.0.0.1, ::1, localhost).")
	}
	u.Scheme = scheme
	u.Fragment = ""
	return u, nil
}

func validPort(p string) bool {
	if len(p) > 5 {
		return false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n >= 1 && n <= 65535
}

// IsLoopbackHost reports whether host (without port) is a loopback name or
// address: localhost, 127.0.0.0/8 or ::1.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
