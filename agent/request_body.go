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

// encodedToolsKey carries a request's encoded tools array in its context.
type encodedToolsKey struct{}

// withEncodedTools returns ctx carrying toolsJSON, the request's tools
// array as JSON ("": none).
func withEncodedTools(ctx context.Context, toolsJSON string) context.Context {
	if toolsJSON == "" {
		return ctx
	}
	return context.WithValue(ctx, encodedToolsKey{}, toolsJSON)
}

// addEncodedTools puts the tools array req's context carries into its JSON
// body, as the member "tools" (the body has none: the request was built
// without tools).
func addEncodedTools(req *http.Request) error {
	toolsJSON, _ := req.Context().Value(encodedToolsKey{}).(string)
	if toolsJSON == "" || req.Body == nil {
		return nil
	}
	body, err := io.ReadAll(req.Body)
	if cerr := req.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("read the request body: %w", err)
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
	req.ContentLength = int64(len(out))
	req.Body = io.NopCloser(bytes.NewReader(out))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(out)), nil }
	return nil
}
