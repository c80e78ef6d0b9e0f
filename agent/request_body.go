package agent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// A request's tools are encoded once (issue 29 item 2). A run encodes its
// tools array when it freezes them (toolsJSON: the text counted, digested
// for the calibration and rendered for /apply-template); go-openai would
// encode it again into every chat request — each tool through a map and
// json.Marshal, about 150 KB with 200 tools, 14% of the CPU from Enter to
// request. The request now goes to go-openai without tools, and
// streamDoer puts the run's encoded array into the body it sends.

// encodedKey carries a request's encoded parts (encodedParts) in its
// context.
type encodedKey struct{}

// encodedParts are the arrays a request's body gets on its way out: its
// tools (message_encode.go: and its messages) as JSON.
type encodedParts struct {
	tools    string
	messages []byte
}

// withEncoded returns ctx carrying toolsJSON, the request's tools array as
// JSON ("": none), and messagesJSON, its messages array (nil: the body
// has its own).
func withEncoded(ctx context.Context, toolsJSON string, messagesJSON []byte) context.Context {
	if toolsJSON == "" && messagesJSON == nil {
		return ctx
	}
	return context.WithValue(ctx, encodedKey{}, encodedParts{tools: toolsJSON, messages: messagesJSON})
}

// nullMessages is what go-openai writes of a request without messages.
var nullMessages = []byte(`"messages":null`)

// addEncodedTools puts the arrays req's context carries into its JSON
// body: the messages where the body has "messages":null (the request was
// built without them), the tools as the member "tools" (the body has none:
// the request was built without tools).
func addEncodedTools(req *http.Request) error {
	parts, _ := req.Context().Value(encodedKey{}).(encodedParts)
	toolsJSON := parts.tools
	if (toolsJSON == "" && parts.messages == nil) || req.Body == nil {
		return nil
	}
	body, err := io.ReadAll(req.Body)
	if cerr := req.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("read the request body: %w", err)
	}
	if parts.messages != nil {
		// A string's quotes are escaped in JSON: the first is the member.
		at := bytes.Index(body, nullMessages)
		if at < 0 {
			return fmt.Errorf("the request body has no messages member to fill")
		}
		head := len(`"messages":`)
		filled := make([]byte, 0, len(body)+len(parts.messages))
		filled = append(filled, body[:at+head]...)
		filled = append(filled, parts.messages...)
		body = append(filled, body[at+len(nullMessages):]...)
	}
	if toolsJSON == "" {
		setBody(req, body)
		return nil
	}
	end := bytes.LastIndexByte(body, '}')
	head := bytes.TrimRight(body[:max(end, 0)], " \t\r\n")
	if end < 0 || len(head) == 0 {
		return fmt.Errorf("the request body is not a JSON object")
	}
	sep := ","
	if head[len(head)-1] == '{' {
		sep = ""
	}
	out := make([]byte, 0, len(body)+len(toolsJSON)+len(`,"tools":`))
	out = append(out, body[:end]...)
	out = append(out, sep+`"tools":`...)
	out = append(out, toolsJSON...)
	out = append(out, body[end:]...)
	setBody(req, out)
	return nil
}

// setBody makes out req's body.
func setBody(req *http.Request, out []byte) {
	req.ContentLength = int64(len(out))
	req.Body = io.NopCloser(bytes.NewReader(out))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(out)), nil }
}
