package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// NothingAvailable is the summary of a server with no valid tools (SPEC B3).
const NothingAvailable = "nothing available in this release"

// TestReport is what a connection test found (SPEC B2). Every string in it
// is neutralized; it never contains the secret.
type TestReport struct {
	ServerID string `json:"server_id"`
	// ProtocolVersion is the negotiated MCP revision; Stateless reports the
	// 2026-07-28 era (no session), else the legacy initialize/session era.
	ProtocolVersion string `json:"protocol_version"`
	Stateless       bool   `json:"stateless"`
	ServerName      string `json:"server_name"`
	ServerTitle     string `json:"server_title,omitempty"`
	ServerVersion   string `json:"server_version"`
	// Capabilities lists what the server advertises, sorted: "tools",
	// "tools.listChanged", "resources", "prompts", "logging", "completions",
	// "tasks", "sampling", "elicitation", "roots", "experimental",
	// "extensions". Only tools are used in this release (SPEC B3).
	Capabilities []string `json:"capabilities"`
	// Tools are the valid tools; Rejected the skipped ones with reasons.
	Tools    []ToolInfo  `json:"tools"`
	Rejected []Rejection `json:"rejected"`
	// Summary is one line: "3 tools available (1 rejected)" or
	// NothingAvailable.
	Summary string `json:"summary"`
	// Elapsed is how long the test took; JSON carries it as elapsed_ms,
	// whole milliseconds, as every listing of vouch's does.
	Elapsed time.Duration `json:"-"`
}

// MarshalJSON implements json.Marshaler: the fields as tagged, and
// Elapsed as elapsed_ms. '<', '>' and '&' are not HTML-escaped.
func (r TestReport) MarshalJSON() ([]byte, error) {
	type fields TestReport // without this method
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		fields
		ElapsedMS int64 `json:"elapsed_ms"`
	}{fields(r), r.Elapsed.Milliseconds()})
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), err
}

// Test connects to cfg with default options and reports what it found; see
// Manager.Test.
func Test(ctx context.Context, cfg ServerConfig, secret string) (TestReport, error) {
	return testServer(ctx, Options{}.withDefaults(), cfg, secret)
}

// Test connects to a server that need not be configured in m, lists its
// tools and closes the connection (SPEC B2). It activates nothing, stores
// nothing and leaves m's servers untouched; a server asking for OAuth fails
// with ErrOAuthUnsupported without any listener being opened (SPEC B4).
// secret is the header value the person entered ("" for none). The error is
// a *ConfigError or an *Error, one sentence, never containing the secret.
func (m *Manager) Test(ctx context.Context, cfg ServerConfig, secret string) (TestReport, error) {
	return testServer(ctx, m.opts, cfg, secret)
}

func testServer(ctx context.Context, opts Options, cfg ServerConfig, secret string) (TestReport, error) {
	if err := cfg.Validate(); err != nil {
		return TestReport{}, err
	}
	timeout := opts.TestTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	} else {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	start := time.Now()
	if cfg.HeaderName == "" {
		secret = ""
	}
	c, err := dial(ctx, dialConfig{
		cfg: cfg, secret: secret, httpClient: opts.HTTPClient, limits: opts.Limits, logger: opts.Logger,
		clientInfo: mcp.Implementation{Name: "vouch", Version: opts.ClientVersion}, timeout: timeout,
	})
	if err != nil {
		return TestReport{}, scrub(err, secret)
	}
	defer c.close()
	rep := TestReport{
		ServerID:        cfg.ID,
		ProtocolVersion: cleanText(c.version, 32),
		Stateless:       c.modern,
		ServerName:      cleanText(c.info.Name, 100),
		ServerTitle:     cleanText(c.info.Title, 100),
		ServerVersion:   cleanText(c.info.Version, 50),
		Capabilities:    capabilityNames(c.caps),
	}
	if c.caps.Tools != nil {
		raws, err := c.listTools(ctx)
		if err != nil {
			return TestReport{}, scrub(err, secret)
		}
		rep.Tools, rep.Rejected = validateTools(cfg.ID, raws, opts.Limits)
	}
	rep.Summary = summary(len(rep.Tools), len(rep.Rejected))
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func summary(tools, rejected int) string {
	if tools == 0 {
		if rejected > 0 {
			return fmt.Sprintf("%s (%d invalid tools rejected)", NothingAvailable, rejected)
		}
		return NothingAvailable
	}
	s := fmt.Sprintf("%d tools available", tools)
	if tools == 1 {
		s = "1 tool available"
	}
	if rejected > 0 {
		s += fmt.Sprintf(" (%d rejected)", rejected)
	}
	return s
}

// scrub removes the secret from an error's sentence, should a server have
// echoed it into an error message.
func scrub(err error, secret string) error {
	if e, ok := err.(*Error); ok && secret != "" {
		c := *e
		c.Sentence = redact(c.Sentence, secret)
		return &c
	}
	return err
}

func capabilityNames(c mcp.ServerCapabilities) []string {
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(c.Tools != nil, "tools")
	add(c.Tools != nil && c.Tools.ListChanged, "tools.listChanged")
	add(c.Resources != nil, "resources")
	add(c.Prompts != nil, "prompts")
	add(c.Logging != nil, "logging")
	add(c.Completions != nil, "completions")
	add(c.Tasks != nil, "tasks")
	add(c.Sampling != nil, "sampling")
	add(c.Elicitation != nil, "elicitation")
	add(c.Roots != nil, "roots")
	add(len(c.Experimental) > 0, "experimental")
	add(len(c.Extensions) > 0, "extensions")
	slices.Sort(out)
	return out
}
