package mcpclient

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// MCP Apps (SPEC J, the io.modelcontextprotocol/ui extension): what this
// package knows of it is the negotiation, the tool metadata and the
// resource. Serving a view is package apps's.

// Names of the MCP Apps extension.
const (
	// UIExtension is the extension's identifier in capabilities.extensions.
	UIExtension = "io.modelcontextprotocol/ui"
	// UIMimeType is the only resource type an app may be (SPEC J3).
	UIMimeType = "text/html;profile=mcp-app"
	// UIScheme starts every app resource URI.
	UIScheme = "ui://"
	// VisibilityModel and VisibilityApp are the audiences of a tool.
	VisibilityModel = "model"
	VisibilityApp   = "app"
)

// MaxUIResourceBytes bounds an app's HTML, decoded (SPEC J3).
const MaxUIResourceBytes = 4 << 20

// maxUIURILen bounds a ui:// URI.
const maxUIURILen = 1024

// clientCapabilities are the capabilities vouch advertises: the MCP Apps
// extension with its one MIME type (SPEC J1).
func clientCapabilities() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{
		// SPEC B12: form and URL elicitation, served to a call in flight
		// (elicit.go); sampling and roots stay undeclared (SPEC B9).
		Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
		Extensions: map[string]any{
			UIExtension: map[string]any{"mimeTypes": []string{UIMimeType}},
		},
	}
}

// ToolUI is a tool's MCP Apps metadata (_meta.ui), validated.
type ToolUI struct {
	// ResourceURI is the ui:// resource that renders the tool's results;
	// "" when the tool has none (an app-only helper tool, say).
	ResourceURI string `json:"resource_uri,omitempty"`
	// Visibility lists the audiences, "model" and "app"; nil means the
	// default, both. Unknown audiences are dropped.
	Visibility []string `json:"visibility,omitempty"`
	// VisibilitySet records that the server sent a visibility list, so that
	// an empty one (nobody) differs from the default.
	VisibilitySet bool `json:"visibility_set,omitempty"`
}

// ModelVisible reports whether the tool may be offered to the model (SPEC
// J2). Tools without MCP Apps metadata are.
func (t ToolInfo) ModelVisible() bool { return t.UI.visibleTo(VisibilityModel) }

// AppVisible reports whether a view may call the tool (SPEC J2).
func (t ToolInfo) AppVisible() bool { return t.UI.visibleTo(VisibilityApp) }

// ResourceURI returns the ui:// resource bound to the tool, or "".
func (t ToolInfo) ResourceURI() string {
	if t.UI == nil {
		return ""
	}
	return t.UI.ResourceURI
}

func (u *ToolUI) visibleTo(who string) bool {
	if u == nil || !u.VisibilitySet {
		return true
	}
	for _, v := range u.Visibility {
		if v == who {
			return true
		}
	}
	return false
}

// parseToolUI reads _meta.ui.resourceUri (or the deprecated flat
// _meta["ui/resourceUri"]) and _meta.ui.visibility. It returns nil when the
// tool has no MCP Apps metadata, and an error sentence when the metadata is
// malformed: the tool is then rejected, since vouch could not know who may
// call it.
func parseToolUI(meta json.RawMessage) (*ToolUI, string) {
	if len(bytes.TrimSpace(meta)) == 0 || bytes.Equal(bytes.TrimSpace(meta), []byte("null")) {
		return nil, ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return nil, "" // _meta is the server's business; only ui matters here
	}
	var ui struct {
		ResourceURI json.RawMessage `json:"resourceUri"`
		Visibility  json.RawMessage `json:"visibility"`
	}
	if raw, ok := m["ui"]; ok && !isNull(raw) {
		if json.Unmarshal(raw, &ui) != nil {
			return nil, "the tool's _meta.ui is not an object"
		}
	}
	out := &ToolUI{}
	uri := jsonString(ui.ResourceURI)
	if uri == "" {
		uri = jsonString(m["ui/resourceUri"]) // deprecated flat form
	}
	if uri != "" {
		if reason := CheckUIResourceURI(uri); reason != "" {
			return nil, reason
		}
		out.ResourceURI = uri
	}
	if !isNull(ui.Visibility) {
		var vis []string
		if json.Unmarshal(ui.Visibility, &vis) != nil {
			return nil, "the tool's _meta.ui.visibility is not a list of strings"
		}
		out.VisibilitySet = true
		out.Visibility = []string{}
		for _, v := range vis {
			if (v == VisibilityModel || v == VisibilityApp) && !containsString(out.Visibility, v) {
				out.Visibility = append(out.Visibility, v)
			}
		}
	}
	if out.ResourceURI == "" && !out.VisibilitySet {
		return nil, ""
	}
	return out, ""
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// CheckUIResourceURI returns why uri cannot name an app resource, or "".
func CheckUIResourceURI(uri string) string {
	switch {
	case !strings.HasPrefix(uri, UIScheme) || len(uri) == len(UIScheme):
		return "the tool's app resource URI does not start with ui://"
	case len(uri) > maxUIURILen:
		return fmt.Sprintf("the tool's app resource URI is longer than %d bytes", maxUIURILen)
	case !utf8.ValidString(uri) || neutralize(uri) != uri || strings.ContainsAny(uri, " \t\r\n\"'<>\\`"):
		return "the tool's app resource URI contains spaces, quotes or control characters"
	}
	return ""
}

// UIResource is an app's HTML as read from its server, checked (SPEC J3).
type UIResource struct {
	URI  string
	HTML []byte
	// CSP holds the domains the resource declared, unvalidated: package
	// apps validates them before building a policy.
	CSP UICSP
	// PrefersBorder is the resource's display preference, if it said.
	PrefersBorder *bool
}

// UICSP is _meta.ui.csp of a resource, as sent.
type UICSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// ReadUIResource fetches an app resource with resources/read, whether or
// not the server lists it (SPEC J1), and checks its type, encoding and size
// (SPEC J3). The server must be active; a lost session is re-tried once, as
// reading changes nothing.
func (m *Manager) ReadUIResource(ctx context.Context, serverID, uri string) (UIResource, error) {
	if reason := CheckUIResourceURI(uri); reason != "" {
		return UIResource{}, &Error{Kind: ErrProtocol, Sentence: capitalize(reason) + "; report it to the server's maintainer."}
	}
	s, err := m.activeServer(serverID)
	if err != nil {
		return UIResource{}, err
	}
	timeout := m.opts.CallTimeout
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		c, err := m.connect(ctx, s, NonInteractive, timeout)
		if err != nil {
			return UIResource{}, err
		}
		raw, p, err := c.request(ctx, string(mcp.MethodResourcesRead), map[string]any{"uri": uri})
		if err == nil {
			return parseUIResource(raw, uri)
		}
		lost := c.sessionLost(err, p)
		e := c.classifyWithin(err, p, timeout)
		if lost || errors.Is(e, ErrUnreachable) {
			m.mu.Lock()
			m.dropConnLocked(s, c)
			m.mu.Unlock()
			if attempt == 0 {
				continue
			}
		}
		return UIResource{}, e
	}
}

// parseUIResource checks a resources/read result for uri (SPEC J3).
func parseUIResource(raw json.RawMessage, uri string) (UIResource, error) {
	bad := func(sentence string) (UIResource, error) {
		return UIResource{}, &Error{Kind: ErrProtocol, Sentence: sentence}
	}
	var res struct {
		Contents []struct {
			URI      string           `json:"uri"`
			MimeType string           `json:"mimeType"`
			Text     *string          `json:"text"`
			Blob     *string          `json:"blob"`
			Meta     *json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return bad("The server's answer to resources/read is malformed; report it to the server's maintainer.")
	}
	for _, c := range res.Contents {
		if c.URI != uri {
			continue
		}
		if !IsUIMimeType(c.MimeType) {
			return bad(fmt.Sprintf("The app resource has type %q, not %s, so vouch does not show it; report it to the server's maintainer.",
				cleanText(c.MimeType, 80), UIMimeType))
		}
		var html []byte
		switch {
		case c.Text != nil && c.Blob == nil:
			if len(*c.Text) > MaxUIResourceBytes {
				return bad(fmt.Sprintf("The app resource is larger than %d MiB, so vouch does not show it.", MaxUIResourceBytes>>20))
			}
			html = []byte(*c.Text)
		case c.Blob != nil && c.Text == nil:
			if base64.StdEncoding.DecodedLen(len(*c.Blob)) > MaxUIResourceBytes+3 {
				return bad(fmt.Sprintf("The app resource is larger than %d MiB, so vouch does not show it.", MaxUIResourceBytes>>20))
			}
			b, err := base64.StdEncoding.DecodeString(*c.Blob)
			if err != nil {
				return bad("The app resource's blob is not valid base64; report it to the server's maintainer.")
			}
			if len(b) > MaxUIResourceBytes {
				return bad(fmt.Sprintf("The app resource is larger than %d MiB, so vouch does not show it.", MaxUIResourceBytes>>20))
			}
			html = b
		default:
			return bad("The app resource has neither text nor a blob (or both); report it to the server's maintainer.")
		}
		if !utf8.Valid(html) {
			return bad("The app resource is not valid UTF-8 HTML; report it to the server's maintainer.")
		}
		out := UIResource{URI: uri, HTML: html}
		if c.Meta != nil {
			var meta struct {
				UI *struct {
					CSP           json.RawMessage `json:"csp"`
					PrefersBorder *bool           `json:"prefersBorder"`
				} `json:"ui"`
			}
			if json.Unmarshal(*c.Meta, &meta) != nil {
				return bad("The app resource's _meta is malformed; report it to the server's maintainer.")
			}
			if meta.UI != nil {
				if !isNull(meta.UI.CSP) && json.Unmarshal(meta.UI.CSP, &out.CSP) != nil {
					return bad("The app resource's _meta.ui.csp is not lists of domains; report it to the server's maintainer.")
				}
				out.PrefersBorder = meta.UI.PrefersBorder
			}
		}
		return out, nil
	}
	return bad("The server's answer to resources/read does not contain the app resource; report it to the server's maintainer.")
}

// IsUIMimeType reports whether m is text/html;profile=mcp-app, allowing
// the spacing and case variations MIME permits.
func IsUIMimeType(m string) bool {
	parts := strings.Split(m, ";")
	if len(parts) != 2 || !strings.EqualFold(strings.TrimSpace(parts[0]), "text/html") {
		return false
	}
	k, v, ok := strings.Cut(strings.TrimSpace(parts[1]), "=")
	return ok && strings.EqualFold(strings.TrimSpace(k), "profile") && strings.Trim(strings.TrimSpace(v), `"`) == "mcp-app"
}

// AppTool returns the tool name of server serverID from its catalog,
// whatever its visibility: the view of an app may call tools the model is
// never offered (SPEC J2). ok is false when the server is unknown or its
// catalog does not list the tool.
func (m *Manager) AppTool(serverID, name string) (ToolEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.servers[serverID]
	if !ok || !s.hasCatalog {
		return ToolEntry{}, false
	}
	t, ok := s.catalog.Tool(name)
	if !ok {
		return ToolEntry{}, false
	}
	return ToolEntry{ToolInfo: t, ServerID: s.cfg.ID, ServerName: s.cfg.Name, Status: s.status,
		Executable: s.cfg.Active && s.status.Offered()}, true
}

// CallRaw is Call that also returns the result as the server sent it
// (bounded by Limits.MaxResponseBytes), for a view that must receive its
// content, structuredContent, _meta and isError unchanged (SPEC J4). The
// Result is what the model and the transcript read, as from Call.
func (m *Manager) CallRaw(ctx context.Context, serverID, toolName string, args json.RawMessage, opts CallOptions) (Result, json.RawMessage, error) {
	return m.call(ctx, serverID, toolName, args, opts)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
