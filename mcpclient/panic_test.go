package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vouch/internal/panics"
	"vouch/mcpclient/mcptest"
)

// panickyTransport stands for a bug in the code that reads a server's
// answer: it panics on every tools/list request.
type panickyTransport struct{ base http.RoundTripper }

func (p panickyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"tools/list"`)) {
			panic("index out of range [3] with length 3")
		}
	}
	return p.base.RoundTrip(req)
}

// recordHandler signals each log record whose message is msg.
type recordHandler struct {
	msg  string
	seen chan slog.Record
}

func (h recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h recordHandler) WithGroup(string) slog.Handler            { return h }
func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.seen <- r
	}
	return nil
}

// TestRefreshPanicIsServerError: a panic while a server's tool list is
// read — in the background warming Start begins, or in a Refresh the
// person asked for — ends as that server's error status with one sentence
// and an error wrapping ErrInternal; the process goes on and the stack is
// in the debug log (SPEC H7, B5; issue 12 follow-up). Before the fix the
// warming goroutine's panic ended the whole test binary.
func TestRefreshPanicIsServerError(t *testing.T) {
	srv := newServer(t, mcptest.Options{})
	seen := make(chan slog.Record, 4)
	m, _ := newManager(t, Options{
		HTTPClient: &http.Client{Transport: panickyTransport{base: &http.Transport{DisableKeepAlives: true}}},
		Logger:     slog.New(recordHandler{msg: "mcp: internal error", seen: seen}),
		Timeout:    waitLimit,
	})
	cfg := NewServerConfig("buggy", srv.URL, "")
	cfg.Active = true
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("Start() = %v", err)
	}
	select {
	case r := <-seen:
		var stack string
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "stack" {
				stack = a.Value.String()
			}
			return true
		})
		if !strings.Contains(stack, "panickyTransport") {
			t.Errorf("the logged stack does not show where the panic happened:\n%s", stack)
		}
	case <-time.After(waitLimit):
		t.Fatal("the warming refresh never reported its panic")
	}
	want := "vouch hit an internal error while reading this server's tool list, so its tools were not refreshed; refresh the server to try again, and please report it."
	st, ok := m.Server(cfg.ID)
	if !ok || st.Status != StatusError || st.Err != want {
		t.Fatalf("after a panic while warming: status %v, err %q; want %v, %q", st.Status, st.Err, StatusError, want)
	}
	if n := len(m.Executable()); n != 0 {
		t.Errorf("%d tools offered from a server whose refresh panicked", n)
	}

	err := m.Refresh(context.Background(), cfg.ID, NonInteractive)
	if !errors.Is(err, ErrInternal) || !errors.Is(err, panics.ErrInternal) || err.Error() != want {
		t.Fatalf("Refresh() = %v; want the sentence, wrapping ErrInternal", err)
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusError || st.Err != want {
		t.Fatalf("after a panic in Refresh: status %v, err %q", st.Status, st.Err)
	}
}
