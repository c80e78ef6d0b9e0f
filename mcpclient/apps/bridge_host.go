package apps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"vouch/mcpclient"
)

// This file answers a view's requests that need the Host (SPEC J2, J4):
// tools/call checked against the view's own server, links, and messages.

// hostTimeout bounds how long a view's request may wait on the Host.
const hostTimeout = 10 * time.Minute

// serve answers one request that needs the Host.
func (b *Bridge) serve(m message) {
	ctx, cancel := context.WithTimeout(b.life, hostTimeout)
	defer cancel()
	answer := b.answer(ctx, m)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending--
	if b.state == StateClosed {
		return
	}
	b.sendLocked(answer)
}

func (b *Bridge) answer(ctx context.Context, m message) json.RawMessage {
	v := b.opts.View
	deny := func(err error) json.RawMessage {
		if errors.Is(err, ErrDenied) || errors.Is(err, ErrRejected) {
			return errorResponse(m.ID, codeDenied, err.Error())
		}
		return errorResponse(m.ID, codeInternal, err.Error())
	}
	switch m.Method {
	case methodToolsCall:
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if m.Params == nil || json.Unmarshal(m.Params, &p) != nil || p.Name == "" {
			return errorResponse(m.ID, codeInvalidParams, "tools/call needs a tool name and an object of arguments")
		}
		if a := p.Arguments; len(a) > 0 && string(a) != "null" && a[0] != '{' {
			return errorResponse(m.ID, codeInvalidParams, "tools/call needs an object of arguments")
		}
		tool, err := CheckToolCall(v, b.opts.Lookup, p.Name)
		if err != nil {
			return deny(err)
		}
		raw, err := b.opts.Host.CallTool(ctx, v, tool, p.Arguments)
		if err != nil {
			return deny(err)
		}
		if !json.Valid(raw) {
			return errorResponse(m.ID, codeInternal, "the server's result is not valid JSON")
		}
		return response(m.ID, raw)
	case methodOpenLink:
		var p struct {
			URL string `json:"url"`
		}
		if m.Params == nil || json.Unmarshal(m.Params, &p) != nil {
			return errorResponse(m.ID, codeInvalidParams, "ui/open-link needs a url")
		}
		if err := checkLink(p.URL); err != nil {
			return errorResponse(m.ID, codeInvalidParams, err.Error())
		}
		if err := b.opts.Host.OpenLink(ctx, v, p.URL); err != nil {
			return deny(err)
		}
		return response(m.ID, map[string]any{})
	default: // methodMessage
		text, err := messageText(m.Params)
		if err != nil {
			return errorResponse(m.ID, codeInvalidParams, err.Error())
		}
		if err := b.opts.Host.Message(ctx, v, text); err != nil {
			return deny(err)
		}
		return response(m.ID, map[string]any{})
	}
}

// checkLink accepts an absolute http or https URL of bounded length.
func checkLink(s string) error {
	if len(s) > 2048 {
		return errors.New("the link is longer than 2048 bytes")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return errors.New("only http and https links can be opened")
	}
	return nil
}

// maxMessageText bounds the text of a ui/message.
const maxMessageText = 16 << 10

// messageText reads the text of a ui/message: role "user" and text
// content, as one block or a list of text blocks.
func messageText(params json.RawMessage) (string, error) {
	var p struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if params == nil || json.Unmarshal(params, &p) != nil || p.Role != "user" {
		return "", errors.New("ui/message needs role \"user\" and text content")
	}
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var blocks []block
	var one block
	if json.Unmarshal(p.Content, &blocks) != nil {
		if json.Unmarshal(p.Content, &one) != nil {
			return "", errors.New("ui/message content must be text")
		}
		blocks = []block{one}
	}
	var parts []string
	for _, bl := range blocks {
		if bl.Type != "text" {
			return "", errors.New("vouch accepts only text in ui/message")
		}
		parts = append(parts, bl.Text)
	}
	text := strings.Join(parts, "\n")
	if strings.TrimSpace(text) == "" {
		return "", errors.New("ui/message has no text")
	}
	if len(text) > maxMessageText {
		return "", fmt.Errorf("ui/message text is longer than %d KiB", maxMessageText>>10)
	}
	return text, nil
}

// CheckToolCall applies SPEC J2 to a view's tools/call of name: the tool
// must be in the originating server's catalog (a view never reaches
// another server), visible to apps, and, when it is bound to a resource,
// bound to the one the view loaded.
func CheckToolCall(v ViewInfo, lookup ToolLookup, name string) (mcpclient.ToolInfo, error) {
	t, ok := lookup(v.ServerID, name)
	if !ok {
		return mcpclient.ToolInfo{}, fmt.Errorf("%w: the server %s has no tool %s; an app may call only its own server's tools",
			ErrRejected, display(v.ServerName), display(name))
	}
	if !t.AppVisible() {
		return mcpclient.ToolInfo{}, fmt.Errorf("%w: the tool %s is not visible to apps", ErrRejected, display(name))
	}
	if uri := t.ResourceURI(); uri != "" && uri != v.ResourceURI {
		return mcpclient.ToolInfo{}, fmt.Errorf("%w: the tool %s belongs to another app view (%s)", ErrRejected, display(name), display(uri))
	}
	return t, nil
}
