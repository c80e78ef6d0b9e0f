package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxSSELine bounds one line of an event stream. A chunk of a chat
// completion is a few hundred bytes; a line this long is garbage.
const maxSSELine = 4 << 20

// Errors the stream filter returns in place of data. Run classifies them.
var (
	errNotSSE        = errors.New("not an event stream")
	errStreamDropped = errors.New("stream ended before [DONE]")
	errLineTooLong   = errors.New("event stream line too long")
)

// streamError is an error object a server sent inside an event stream,
// either as `data: {"error": …}` or as llama.cpp's `error: {…}` line.
type streamError struct {
	Message string
	Type    string
	Code    string
}

func (e *streamError) Error() string {
	if e.Message == "" {
		return "error event in stream"
	}
	return e.Message
}

// sseFilter sits between the HTTP body of a streaming chat completion and
// go-openai's line reader. go-openai v1.43.0 treats every line that does not
// start with "data:" as a possible error fragment: it appends it to an
// unbounded buffer for the whole stream, counts it toward a limit of 300
// consecutive such lines, and tries to parse the buffer as an error at EOF —
// so keep-alive comments corrupt error reporting and can end a slow stream,
// a body that is not SSE at all looks like a clean empty answer, and a
// dropped connection looks like a finished one. The filter passes on only
// `data:` lines (normalised), drops comments and other SSE fields, turns
// error objects into *streamError, anything else into errNotSSE, and an end
// of body before `data: [DONE]` into errStreamDropped.
type sseFilter struct {
	body      io.ReadCloser
	src       *bufio.Reader
	out       []byte
	err       error
	sawDone   bool
	nextError bool // the previous line was "event: error"
	line      []byte
}

func newSSEFilter(body io.ReadCloser) *sseFilter {
	return &sseFilter{body: body, src: bufio.NewReaderSize(body, 32<<10)}
}

func (f *sseFilter) Close() error { return f.body.Close() }

func (f *sseFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.step()
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

// step reads one line and decides what, if anything, to pass on.
func (f *sseFilter) step() {
	line, err := f.readLine()
	if len(line) > 0 {
		f.classify(line)
	}
	if err != nil && f.err == nil {
		switch {
		case errors.Is(err, io.EOF) && f.sawDone:
			f.err = io.EOF
		case errors.Is(err, io.EOF):
			f.err = errStreamDropped
		default:
			f.err = fmt.Errorf("%w: %w", errStreamDropped, err)
		}
	}
}

// readLine returns one line without its line ending, bounded by maxSSELine.
func (f *sseFilter) readLine() ([]byte, error) {
	f.line = f.line[:0]
	for {
		frag, err := f.src.ReadSlice('\n')
		f.line = append(f.line, frag...)
		if len(f.line) > maxSSELine {
			f.err = errLineTooLong
			return nil, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(f.line, "\r\n"), err
	}
}

func (f *sseFilter) classify(line []byte) {
	field, value, hasColon := bytes.Cut(line, []byte(":"))
	if !hasColon {
		f.err = fmt.Errorf("%w: %q", errNotSSE, sample(line))
		return
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "": // a comment, e.g. ": keep-alive"
	case "event":
		f.nextError = string(bytes.TrimSpace(value)) == "error"
	case "id", "retry":
	case "error": // llama.cpp writes `error: {…}` for errors in a stream
		f.err = parseStreamError(value)
	case "data":
		payload := bytes.TrimSpace(value)
		switch {
		case f.nextError || isErrorObject(payload):
			f.err = parseStreamError(payload)
		case string(payload) == "[DONE]":
			f.sawDone = true
			f.out = append(f.out[:0], "data: [DONE]\n"...)
		case len(payload) == 0:
		default:
			f.out = append(append(append(f.out[:0], "data: "...), payload...), '\n')
		}
	default:
		f.err = fmt.Errorf("%w: %q", errNotSSE, sample(line))
	}
}

// isErrorObject reports whether payload is a JSON object whose first key is
// "error" — cheap enough to run on every chunk.
func isErrorObject(payload []byte) bool {
	p := bytes.TrimLeft(payload, " \t")
	if len(p) == 0 || p[0] != '{' {
		return false
	}
	p = bytes.TrimLeft(p[1:], " \t\r\n")
	return bytes.HasPrefix(p, []byte(`"error"`))
}

// parseStreamError decodes the shapes servers use for errors in a stream:
// {"error":{"message":…}}, {"error":"text"} and a bare {"message":…}.
func parseStreamError(payload []byte) error {
	var outer struct {
		Error json.RawMessage `json:"error"`
	}
	obj := payload
	if json.Unmarshal(payload, &outer) == nil && len(outer.Error) > 0 {
		var text string
		if json.Unmarshal(outer.Error, &text) == nil {
			return &streamError{Message: text}
		}
		obj = outer.Error
	}
	var inner struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(obj, &inner); err != nil {
		return &streamError{Message: string(sample(payload))}
	}
	return &streamError{Message: inner.Message, Type: inner.Type, Code: string(bytes.Trim(inner.Code, `"`))}
}

// sample returns at most 80 bytes of b for an error message.
func sample(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}
