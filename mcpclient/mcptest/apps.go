package mcptest

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// MCP Apps (SPEC J): with Options.Apps a Server also offers tools bound to
// ui:// resources, with each visibility, and serves the resources through a
// template, so that resources/list does not name them (SPEC J1):
//
//	clock        visibility default; ui://clock/view.html; text, structured
//	             content and _meta in its result
//	clock_tick   app only; ui://clock/view.html
//	clock_reset  app only; no resource
//	clock_model  model only; ui://clock/view.html
//	clock_legacy the deprecated flat _meta["ui/resourceUri"]: ui://clock/legacy.html
//	clock_broken ui://clock/<Options.AppResource> (default "wrongtype.html")
//
// The resource template answers ui://clock/<file>:
//
//	view.html, legacy.html  a small HTML view, as text, with a CSP declaring
//	                        https://api.example.com and https://cdn.example.com
//	blob.html               the same view, base64-encoded
//	wrongtype.html          text/html without the mcp-app profile
//	huge.html               5 MiB of HTML (beyond the limit)
//	badcsp.html             a CSP domain that smuggles a directive
//	missing.html            an answer for another URI
const (
	AppViewURI   = "ui://clock/view.html"
	AppLegacyURI = "ui://clock/legacy.html"
)

// AppHTML is the HTML of the test view.
const AppHTML = `<!doctype html><html><head><title>clock</title></head><body><p id="t">clock view</p></body></html>`

// appTools returns the MCP Apps tools.
func (s *Server) appTools() []server.ServerTool {
	ui := func(uri string, vis ...string) *mcp.Meta {
		m := map[string]any{}
		if uri != "" {
			m["resourceUri"] = uri
		}
		if vis != nil {
			m["visibility"] = vis
		}
		return mcp.NewMetaFromMap(map[string]any{"ui": m})
	}
	broken := s.opts.AppResource
	if broken == "" {
		broken = "wrongtype.html"
	}
	clock := func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := mcp.NewToolResultText("12:00")
		res.StructuredContent = map[string]any{"time": "12:00", "zone": r.GetString("zone", "UTC")}
		res.Meta = mcp.NewMetaFromMap(map[string]any{"source": "mcptest"})
		return res, nil
	}
	tool := func(name, desc string, meta *mcp.Meta) server.ServerTool {
		t := mcp.NewTool(name, mcp.WithDescription(desc), mcp.WithString("zone"))
		t.Meta = meta
		return server.ServerTool{Tool: t, Handler: s.counted(name, clock)}
	}
	return []server.ServerTool{
		tool("clock", "Tell the time, with a view.", ui(AppViewURI)),
		tool("clock_tick", "Advance the clock (for the view).", ui(AppViewURI, "app")),
		tool("clock_reset", "Reset the clock (for the view).", ui("", "app")),
		tool("clock_model", "Tell the time (for the model only).", ui(AppViewURI, "model")),
		tool("clock_legacy", "Tell the time, with a view named the old way.",
			mcp.NewMetaFromMap(map[string]any{"ui/resourceUri": AppLegacyURI})),
		tool("clock_broken", "Tell the time, with a view that cannot be shown.", ui("ui://clock/"+broken)),
	}
}

// addApps registers the MCP Apps tools and the resource template.
func (s *Server) addApps(ms *server.MCPServer) {
	ms.AddTools(s.appTools()...)
	ms.AddResourceTemplate(mcp.NewResourceTemplate("ui://clock/{file}", "clock views", mcp.WithTemplateMIMEType("text/html;profile=mcp-app")),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			s.count(s.requests, "resources/read "+r.Params.URI)
			return appResource(r.Params.URI)
		})
}

// appResource answers resources/read for a ui://clock/ URI.
func appResource(uri string) ([]mcp.ResourceContents, error) {
	const mime = "text/html;profile=mcp-app"
	csp := map[string]any{"ui": map[string]any{"csp": map[string]any{
		"connectDomains":  []string{"https://api.example.com"},
		"resourceDomains": []string{"https://cdn.example.com"},
	}, "prefersBorder": true}}
	switch strings.TrimPrefix(uri, "ui://clock/") {
	case "view.html", "legacy.html":
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: mime, Text: AppHTML, Meta: csp}}, nil
	case "blob.html":
		return []mcp.ResourceContents{mcp.BlobResourceContents{URI: uri, MIMEType: mime, Blob: base64.StdEncoding.EncodeToString([]byte(AppHTML))}}, nil
	case "wrongtype.html":
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/html", Text: AppHTML}}, nil
	case "huge.html":
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: mime, Text: strings.Repeat("x", 5<<20)}}, nil
	case "badcsp.html":
		bad := map[string]any{"ui": map[string]any{"csp": map[string]any{
			"connectDomains": []string{"https://api.example.com; script-src *"},
		}}}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: mime, Text: AppHTML, Meta: bad}}, nil
	case "missing.html":
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "ui://clock/other.html", MIMEType: mime, Text: AppHTML}}, nil
	}
	return nil, fmt.Errorf("no such view: %s", uri)
}
