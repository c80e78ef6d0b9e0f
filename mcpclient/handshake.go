package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// errDiscoverUnusable is what a server/discover answer that names no
// version vouch speaks becomes, so that mcp-go falls back to initialize
// (SPEC B10).
var errDiscoverUnusable = errors.New("server/discover answer names no protocol version vouch speaks")

// guardedTransport is the Streamable HTTP transport mcp-go's Client drives,
// with the handshake answers checked: mcp-go v1.2.1 takes any successful
// server/discover answer — an empty {} included, as servers that answer
// every unknown method with an empty result send — for a stateless
// 2026-07-28 server. The embedded transport keeps every interface mcp-go
// looks for (HTTPConnection, BidirectionalInterface, ...).
type guardedTransport struct {
	*transport.StreamableHTTP
}

// SendRequest sends the request; a server/discover answer must list, in
// supportedVersions, a 2026-07-28-era version vouch speaks (SPEC B10).
// Anything else fails the probe, and mcp-go falls back to the legacy
// handshake, which validates its own answer.
func (g guardedTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := g.StreamableHTTP.SendRequest(ctx, req)
	if err != nil || req.Method != string(mcp.MethodServerDiscover) || resp == nil || resp.Error != nil {
		return resp, err
	}
	if !discoverUsable(resp.Result) {
		return nil, errDiscoverUnusable
	}
	return resp, nil
}

// discoverUsable reports whether a server/discover result names a modern
// protocol version vouch speaks.
func discoverUsable(raw json.RawMessage) bool {
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return false
	}
	return slices.ContainsFunc(res.SupportedVersions, func(v string) bool {
		return mcp.IsModernProtocol(v) && mcp.IsValidProtocolVersion(v)
	})
}

// refuseServerRequest answers at once every request a server sends vouch
// other than an elicitation (SPEC B9): vouch declares no sampling or roots
// capability and serves neither, so such a request gets a JSON-RPC "method
// not found" error instead of waiting for a handler that does not exist. A
// ping is answered.
func refuseServerRequest(_ context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == string(mcp.MethodPing) {
		return transport.NewJSONRPCResultResponse(req.ID, json.RawMessage("{}")), nil
	}
	return transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND,
		fmt.Sprintf("vouch does not support %s: it declares no sampling or roots capability", cleanText(req.Method, 80)), nil), nil
}

// maxInputRequestsNamed bounds how many input requests inputRequiredText
// names.
const maxInputRequestsNamed = 8

// inputRequiredText is the tool error for a result of type input_required
// (SPEC B9): what the server asked for, by method and with an
// elicitation's message, neutralized and bounded.
func inputRequiredText(inputRequests []byte) string {
	var asked []string
	if len(inputRequests) > 0 && inputRequests[0] == '{' {
		// A malformed map names nothing; the sentence still says why the call stopped.
		_ = eachField(inputRequests, func(_ string, val []byte) bool {
			var method string
			var params []byte
			if eachField(val, func(k string, v []byte) bool {
				switch k {
				case "method":
					method = cleanText(smallString(v, 64), 64)
				case "params":
					params = v
				}
				return true
			}) != nil || method == "" {
				return len(asked) < maxInputRequestsNamed
			}
			var msg string
			if len(params) > 0 && params[0] == '{' {
				_ = eachField(params, func(k string, v []byte) bool {
					if k == "message" {
						msg = cleanText(smallString(v, 400), 200)
					}
					return true
				})
			}
			if msg != "" {
				method += fmt.Sprintf(" (%q)", msg)
			}
			asked = append(asked, method)
			return len(asked) < maxInputRequestsNamed
		})
	}
	what := strings.Join(asked, ", ")
	if what == "" {
		what = "an unnamed request"
	}
	return "the server asked for input vouch does not support: " + what +
		"; the tool did not finish. Tell the person it needs that input, or use another tool."
}
