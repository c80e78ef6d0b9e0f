package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// TestTestBothEras covers SPEC B2 and B8: the test reports the negotiated
// era, server info, capabilities and tools, against a server speaking both
// eras (stateless 2026-07-28) and a legacy-only one (initialize/session).
func TestTestBothEras(t *testing.T) {
	tests := []struct {
		name      string
		era       mcptest.Era
		version   string
		stateless bool
	}{
		{"stateless", mcptest.EraBoth, "2026-07-28", true},
		{"legacy", mcptest.EraLegacy, "2025-11-25", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, mcptest.Options{Name: "docs\x1b[31m", Version: "2.0", Era: tt.era})
			m, store := newManager(t, Options{})
			rep, err := m.Test(context.Background(), NewServerConfig("docs", srv.URL, ""), "")
			if err != nil {
				t.Fatalf("Test() error = %v", err)
			}
			if rep.ProtocolVersion != tt.version || rep.Stateless != tt.stateless {
				t.Errorf("protocol = %q stateless %v, want %q %v", rep.ProtocolVersion, rep.Stateless, tt.version, tt.stateless)
			}
			if rep.ServerName != "docs" || rep.ServerVersion != "2.0" {
				t.Errorf("server = %q %q, want neutralized name and version", rep.ServerName, rep.ServerVersion)
			}
			if !slices.Equal(rep.Capabilities, []string{"tools", "tools.listChanged"}) {
				t.Errorf("capabilities = %v", rep.Capabilities)
			}
			if len(rep.Tools) != 4 || rep.Summary != "4 tools available" || len(rep.Rejected) != 0 {
				t.Errorf("tools = %d, summary %q, rejected %v", len(rep.Tools), rep.Summary, rep.Rejected)
			}
			// Testing activates and stores nothing (SPEC B2).
			if len(m.Servers()) != 0 || store.count() != 0 || len(m.Executable()) != 0 {
				t.Errorf("Test changed the manager: %d servers, %d saves", len(m.Servers()), store.count())
			}
		})
	}
}

// TestTestNoTools covers SPEC B3: a server with resources and prompts but
// no tools connects and says "nothing available in this release".
func TestTestNoTools(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{}, Resources: true})
	rep, err := Test(context.Background(), NewServerConfig("res", srv.URL, ""), "")
	if err != nil {
		t.Fatalf("Test() error = %v", err)
	}
	if rep.Summary != NothingAvailable || len(rep.Tools) != 0 {
		t.Errorf("summary = %q, tools %d", rep.Summary, len(rep.Tools))
	}
	if !slices.Contains(rep.Capabilities, "resources") || !slices.Contains(rep.Capabilities, "prompts") || slices.Contains(rep.Capabilities, "tools") {
		t.Errorf("capabilities = %v", rep.Capabilities)
	}
}

// TestTestInvalidTools covers SPEC B3 and issue 3's bad input: invalid
// definitions are skipped with a reason, valid ones kept and bounded.
func TestTestInvalidTools(t *testing.T) {
	for _, era := range []mcptest.Era{mcptest.EraBoth, mcptest.EraLegacy} {
		t.Run(fmt.Sprint("era", era), func(t *testing.T) {
			srv := newServer(t, mcptest.Options{InvalidTools: true, Era: era})
			rep, err := Test(context.Background(), NewServerConfig("bad", srv.URL, ""), "")
			if err != nil {
				t.Fatalf("Test() error = %v", err)
			}
			var names []string
			for _, tool := range rep.Tools {
				names = append(names, tool.Name)
				checkInert(t, tool.Description)
				if len(tool.Description) > 1024 {
					t.Errorf("%s description is %d bytes", tool.Name, len(tool.Description))
				}
			}
			if !slices.Equal(names, []string{"echo", "longdesc"}) {
				t.Errorf("valid tools = %v, want [echo longdesc]", names)
			}
			wantReasons := []string{"no name", "at most 128", "control", "control", "missing", "not a JSON object",
				`"type": "object"`, "share this name", "share this name", "cycle", "cycle", "not local", "more than 1000 properties", "not a JSON object"}
			if len(rep.Rejected) != len(wantReasons) {
				t.Fatalf("rejected = %+v, want %d", rep.Rejected, len(wantReasons))
			}
			for i, r := range rep.Rejected {
				if !strings.Contains(r.Reason, wantReasons[i]) {
					t.Errorf("rejection %d = %+v, want reason containing %q", i, r, wantReasons[i])
				}
				checkInert(t, r.Name)
				if len(r.Name) > 80 {
					t.Errorf("rejected name of %d bytes", len(r.Name))
				}
			}
			if !strings.Contains(rep.Summary, "2 tools available (14 rejected)") {
				t.Errorf("summary = %q", rep.Summary)
			}
		})
	}
}

// testErr runs Test against url and checks the error's kind and sentence.
func testErr(t *testing.T, opts Options, cfg ServerConfig, secret string, want error, phrase string) error {
	t.Helper()
	m, store := newManager(t, opts)
	start := time.Now()
	_, err := m.Test(context.Background(), cfg, secret)
	if !errors.Is(err, want) {
		t.Fatalf("Test() error = %v, want %v", err, want)
	}
	if !strings.Contains(err.Error(), phrase) {
		t.Errorf("error %q does not say %q", err, phrase)
	}
	oneSentence(t, err.Error())
	if secret != "" && (strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), secret)) {
		t.Errorf("error shows the secret: %q", err)
	}
	if store.count() != 0 || len(m.Servers()) != 0 {
		t.Errorf("a failed test stored something")
	}
	if d := time.Since(start); d > waitLimit {
		t.Errorf("Test took %s", d)
	}
	return err
}

// TestTestOAuth covers SPEC B4: a 401 with an OAuth challenge is reported
// as unsupported, no OAuth flow starts (the metadata is never fetched, no
// listener opens) and nothing is stored.
func TestTestOAuth(t *testing.T) {
	srv := newServer(t, mcptest.Options{Mode: mcptest.ModeOAuth})
	err := testErr(t, Options{}, NewServerConfig("oauth", srv.URL, ""), "", ErrOAuthUnsupported, "OAuth is not supported")
	if !strings.HasPrefix(err.Error(), "OAuth is not supported") {
		t.Errorf("error = %q", err)
	}
	if n := srv.Requests("GET /.well-known/oauth-protected-resource"); n != 0 {
		t.Errorf("OAuth metadata fetched %d times", n)
	}
}

// TestTestBadServers covers issue 3's bad input: each failure is one clear
// sentence of the right kind.
func TestTestBadServers(t *testing.T) {
	html := newServer(t, mcptest.Options{Mode: mcptest.ModeHTML})
	garbage := newServer(t, mcptest.Options{Mode: mcptest.ModeGarbage})
	hole := newBlackHole(t)
	good := newServer(t, mcptest.Options{})
	redirect := httptest.NewServer(http.RedirectHandler(good.URL, http.StatusTemporaryRedirect))
	t.Cleanup(redirect.Close)
	refused := closedPort(t)
	tests := []struct {
		name   string
		url    string
		opts   Options
		want   error
		phrase string
	}{
		{"html", html.URL, Options{}, ErrNotMCP, "web page"},
		{"garbage", garbage.URL, Options{}, ErrNotMCP, "not valid MCP"},
		{"wrong path", strings.TrimSuffix(good.URL, "/mcp") + "/nope", Options{}, ErrNotMCP, "HTTP 404"},
		{"black hole", hole.URL, Options{TestTimeout: 300 * time.Millisecond}, ErrTimeout, "did not answer within 300ms"},
		{"refused", refused, Options{}, ErrUnreachable, "connection refused"},
		{"redirect", redirect.URL + "/mcp", Options{}, ErrNotMCP, "redirected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testErr(t, tt.opts, NewServerConfig(tt.name, tt.url, ""), "", tt.want, tt.phrase)
		})
	}
}

func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr + "/mcp"
}

// TestTestTLS covers issue 3's TLS errors: an untrusted certificate is one
// sentence; the same server with its root trusted connects over https.
func TestTestTLS(t *testing.T) {
	srv := newServer(t, mcptest.Options{})
	tlsSrv := httptest.NewUnstartedServer(srv)
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is the point
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	url := tlsSrv.URL + "/mcp"
	testErr(t, Options{}, NewServerConfig("tls", url, ""), "", ErrTLS, "TLS")
	m, _ := newManager(t, Options{HTTPClient: tlsSrv.Client()})
	rep, err := m.Test(context.Background(), NewServerConfig("tls", url, ""), "")
	if err != nil || len(rep.Tools) != 4 {
		t.Fatalf("Test() over trusted TLS = %d tools, %v", len(rep.Tools), err)
	}
}

// TestTestSecretHeader covers SPEC B1: one secret header, sent only to its
// server, never shown back, even when the server echoes it.
func TestTestSecretHeader(t *testing.T) {
	const secret = "s3cret-value-0123456789"
	srv := newServer(t, mcptest.Options{RequireHeader: "X-API-Key", RequireValue: secret})
	cfg := NewServerConfig("keyed", srv.URL, "X-API-Key")
	rep, err := Test(context.Background(), cfg, secret)
	if err != nil || len(rep.Tools) != 4 {
		t.Fatalf("Test() with the right secret = %d tools, %v", len(rep.Tools), err)
	}
	if strings.Contains(fmt.Sprintf("%+v", rep), secret) {
		t.Errorf("report shows the secret")
	}
	const wrong = "wrong-secret-9876543210"
	testErr(t, Options{}, cfg, wrong, ErrProtocol, "returned an error")
	testErr(t, Options{}, cfg, "", ErrUnauthorized, "refused the credentials")
}

// TestTestNeedsName covers SPEC B2: no name, no test (and no connection).
func TestTestNeedsName(t *testing.T) {
	hole := newBlackHole(t)
	cfg := NewServerConfig("", hole.URL, "")
	start := time.Now()
	_, err := Test(context.Background(), cfg, "")
	if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "name") {
		t.Fatalf("Test() error = %v, want the name sentence", err)
	}
	if time.Since(start) > time.Second {
		t.Errorf("Test without a name tried to connect")
	}
}

// TestSecretNeverLeaks covers the invariant "no secret byte ever appears in
// the database, a log or the screen" for this package: a server that echoes
// a wrong secret back cannot get it into an error, a log line, a status or
// the stored catalog.
func TestSecretNeverLeaks(t *testing.T) {
	const right, wrong = "right-secret-abcdef", "wrong-secret-123456"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := newServer(t, mcptest.Options{RequireHeader: "Authorization", RequireValue: right})
	cfg := NewServerConfig("keyed", srv.URL, "Authorization")
	cfg.Active = true
	secrets := StaticSecrets{cfg.ID: wrong}
	m, store := newManager(t, Options{Secrets: secrets, Logger: logger})
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	err := m.Refresh(context.Background(), cfg.ID, NonInteractive)
	if err == nil || strings.Contains(err.Error(), wrong) || !strings.Contains(err.Error(), "[secret]") {
		t.Fatalf("Refresh() error = %v; want the echoed secret redacted", err)
	}
	m.logRefresh(cfg.ID, err)
	secrets[cfg.ID] = right
	if err := m.Refresh(context.Background(), cfg.ID, NonInteractive); err != nil {
		t.Fatal(err)
	}
	st, _ := m.Server(cfg.ID)
	stored, _, err := store.MemoryStore.LoadCatalog(context.Background(), cfg.ID)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"logs": logs.String(), "state": fmt.Sprintf("%+v", st), "store": fmt.Sprintf("%+v", stored)} {
		if strings.Contains(s, wrong) || strings.Contains(s, right) {
			t.Errorf("the secret appears in the %s", what)
		}
	}
	if !strings.Contains(logs.String(), "refresh failed") {
		t.Errorf("nothing was logged; the check proves nothing:\n%s", logs.String())
	}
}

func TestRedactingLogger(t *testing.T) {
	var buf bytes.Buffer
	l := redactingLogger(slog.New(slog.NewJSONHandler(&buf, nil)), "hunter2")
	l.With("pre", "x hunter2").WithGroup("g").Info("msg hunter2", "err", errors.New("token hunter2 bad"),
		slog.Group("inner", "v", "hunter2"), "n", 42)
	if out := buf.String(); strings.Contains(out, "hunter2") || !strings.Contains(out, "[secret]") || !strings.Contains(out, "42") {
		t.Fatalf("log = %s", out)
	}
}
