package apps

import (
	"bytes"
	"encoding/json"
	"errors"
)

// JSON-RPC error codes the bridge answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	// codeDenied is the specification's implementation-defined error for a
	// refusal (a person said no, a rule refused the call).
	codeDenied = -32000
)

// maxMessageBytes bounds one message from a view.
const maxMessageBytes = 1 << 20

// message is one JSON-RPC 2.0 message from a view, checked: a request
// (ID and Method), a notification (Method only) or a response (ID and
// Result or Error).
type message struct {
	ID     json.RawMessage // nil for a notification; a number or a string
	Method string
	Params json.RawMessage // an object, or nil
	Result json.RawMessage
	Error  *rpcError
}

func (m message) isRequest() bool      { return m.ID != nil && m.Method != "" }
func (m message) isNotification() bool { return m.ID == nil && m.Method != "" }
func (m message) isResponse() bool     { return m.ID != nil && m.Method == "" }

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Errors from parseMessage. A message with an ID that fails is answered
// with codeInvalidRequest; one without is dropped.
var (
	errTooLarge   = errors.New("the message is larger than 1 MiB")
	errNotJSONRPC = errors.New("the message is not a JSON-RPC 2.0 object")
	errBadID      = errors.New("the message's id is neither a number nor a string")
	errBadShape   = errors.New("the message is neither a request, a notification nor a response")
	errBadParams  = errors.New("the message's params are not an object")
)

// parseMessage checks one message from a view. It returns the ID it could
// read even when the message is otherwise invalid, so that the error can be
// answered.
func parseMessage(b []byte) (message, error) {
	if len(b) > maxMessageBytes {
		return message{}, errTooLarge
	}
	var raw struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return message{}, errNotJSONRPC
	}
	var m message
	if id := bytes.TrimSpace(raw.ID); len(id) > 0 && !bytes.Equal(id, []byte("null")) {
		if !validID(id) {
			return message{}, errBadID
		}
		m.ID = id
	}
	if raw.JSONRPC != "2.0" {
		return m, errNotJSONRPC
	}
	switch {
	case raw.Method != nil:
		if *raw.Method == "" || len(*raw.Method) > 128 || raw.Result != nil || raw.Error != nil {
			return m, errBadShape
		}
		m.Method = *raw.Method
		if p := bytes.TrimSpace(raw.Params); len(p) > 0 && !bytes.Equal(p, []byte("null")) {
			if p[0] != '{' {
				return m, errBadParams
			}
			m.Params = p
		}
	case m.ID != nil && (raw.Result != nil) != (raw.Error != nil):
		if raw.Error != nil {
			var e rpcError
			if json.Unmarshal(raw.Error, &e) != nil {
				return m, errBadShape
			}
			m.Error = &e
		} else {
			m.Result = raw.Result
		}
	default:
		return m, errBadShape
	}
	return m, nil
}

// validID reports whether id is a JSON number or string of bounded size.
func validID(id json.RawMessage) bool {
	if len(id) > 100 {
		return false
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case float64, string:
		return true
	}
	return false
}

// response encodes a result answer to id.
func response(id json.RawMessage, result any) json.RawMessage {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
	if err != nil {
		return errorResponse(id, codeInternal, "the host could not encode its answer")
	}
	return b
}

// errorResponse encodes an error answer to id (null when id is nil).
func errorResponse(id json.RawMessage, code int, msg string) json.RawMessage {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{Code: code, Message: msg}})
	return b
}

// notification encodes a notification to the view.
func notification(method string, params any) json.RawMessage {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		panic("apps: unencodable notification " + method) // params are the bridge's own values
	}
	return b
}

// request encodes a request to the view.
func request(id int64, method string, params any) json.RawMessage {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", id, method, params})
	if err != nil {
		panic("apps: unencodable request " + method)
	}
	return b
}
