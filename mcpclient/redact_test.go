package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// echoSecrets hands out one secret for every server.
type echoSecrets string

func (s echoSecrets) Secret(context.Context, string, SecretMode) (string, error) {
	return string(s), nil
}

// TestServerEchoesSecret is SPEC B1 (issue 14 item 4): a server that
// reflects the configured secret header into serverInfo, a tool's title
// and description, a call's text and structured content and an isError
// result: the catalog, the server state and every result hold [secret]
// where the secret was — the whole header value and its token part.
func TestServerEchoesSecret(t *testing.T) {
	const token = "tok-echo-5b4a3c2d1e0f"
	const secret = "Bearer " + token
	srv := newServer(t, mcptest.Options{RequireHeader: "Authorization", RequireValue: secret, EchoSecret: true})
	m, _ := newManager(t, Options{Secrets: echoSecrets(secret)})
	cfg := NewServerConfig("leaky", srv.URL, "Authorization")
	cfg.Active = true
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(context.Background(), cfg.ID, Interactive); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	st, _ := m.Server(cfg.ID)
	seen, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	all := string(seen)
	for _, args := range []string{`{}`, `{"fail":true}`} {
		res, err := m.Call(context.Background(), cfg.ID, "leak", json.RawMessage(args), CallOptions{})
		if err != nil {
			t.Fatalf("call leak %s: %v", args, err)
		}
		if !strings.Contains(res.Text, "[secret]") {
			t.Errorf("call %s: the echo is not marked [secret]: %q", args, res.Text)
		}
		all += res.Text
	}
	if !strings.Contains(all, `Leak [secret]`) {
		t.Errorf("the tool title is not redacted in the catalog: %s", seen)
	}
	if strings.Contains(all, token) {
		t.Errorf("the secret came back in through the server:\n%s", all)
	}
}

// TestRedactRaw: escapes cannot hide the secret, a value without it is
// returned byte for byte, and numbers keep their text.
func TestRedactRaw(t *testing.T) {
	const secret = "Bearer tok-a/b<c>&d-0123"
	for _, tc := range []struct{ in, want string }{
		{`{"a":"x Bearer tok-a/b<c>&d-0123 y"}`, `{"a":"x [secret] y"}`},
		{`{"a":"tok-a\/b\u003cc\u003e\u0026d-0123"}`, `{"a":"[secret]"}`},
		{`{"tok-a/b<c>&d-0123":1.50}`, `{"[secret]":1.50}`},
		{`{"z":1, "a":"line\nnext"}`, `{"z":1, "a":"line\nnext"}`},
	} {
		if got := string(redactRaw(json.RawMessage(tc.in), secret)); got != tc.want {
			t.Errorf("redactRaw(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
