package apps

import (
	"strings"
	"testing"
)

func TestParseMessage(t *testing.T) {
	tests := []struct {
		in      string
		kind    string // request, notification, response, or error
		keepsID bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "request", true},
		{`{"jsonrpc":"2.0","id":"x","method":"ping","params":{}}`, "request", true},
		{`{"jsonrpc":"2.0","method":"n"}`, "notification", false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, "response", true},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`, "response", true},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{}}`, "error", true},
		{`{"jsonrpc":"2.0","id":1}`, "error", true},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, "error", false},
		{`{"jsonrpc":"2.0","id":true,"method":"x"}`, "error", false},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, "error", true},
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":"s"}`, "error", true},
		{`{"id":1,"method":"x"}`, "error", true},
		{`[1]`, "error", false},
		{strings.Repeat(" ", maxMessageBytes+1), "error", false},
	}
	for _, tt := range tests {
		m, err := parseMessage([]byte(tt.in))
		kind := "error"
		if err == nil {
			switch {
			case m.isRequest():
				kind = "request"
			case m.isNotification():
				kind = "notification"
			case m.isResponse():
				kind = "response"
			}
		}
		if kind != tt.kind || (m.ID != nil) != tt.keepsID {
			t.Errorf("%.40s: kind %s id %s (%v), want %s, id kept %v", tt.in, kind, m.ID, err, tt.kind, tt.keepsID)
		}
	}
}

// FuzzParseMessage: a parsed message is exactly one of the three kinds,
// with a number or string ID, and params that are an object.
func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`, `{"jsonrpc":"2.0","id":"a","result":null}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseMessage(b)
		if m.ID != nil && !validID(m.ID) {
			t.Fatalf("kept id %s", m.ID)
		}
		if err != nil {
			return
		}
		n := 0
		for _, k := range []bool{m.isRequest(), m.isNotification(), m.isResponse()} {
			if k {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%q is %d kinds", b, n)
		}
		if m.Params != nil && m.Params[0] != '{' {
			t.Fatalf("params %s", m.Params)
		}
	})
}
