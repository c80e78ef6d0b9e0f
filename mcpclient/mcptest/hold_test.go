package mcptest

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// send posts a JSON-RPC body and returns the HTTP status (0 with the
// error when there was no answer). It is safe off the test goroutine.
func send(ctx context.Context, url, body string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, resp.Body.Close()
}

// TestHold: a held method's request reaches the server (Arrived) and gets
// no answer until Release; a client that goes away stops waiting; other
// methods are not held.
func TestHold(t *testing.T) {
	s := start(t, Options{Tools: []string{"echo"}})
	h := s.Hold("initialize")
	defer h.Release()

	gone, cancel := context.WithCancel(context.Background())
	abandoned := make(chan int, 1)
	go func() { code, _ := send(gone, s.URL, initialize); abandoned <- code }()
	<-h.Arrived()
	cancel()
	if code := <-abandoned; code != 0 {
		t.Fatalf("a held request was answered (HTTP %d) before Release", code)
	}

	if code, err := send(context.Background(), s.URL, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code == 0 {
		t.Fatalf("an unheld method got no answer: %v", err)
	}

	answered := make(chan int, 1)
	go func() { code, _ := send(context.Background(), s.URL, initialize); answered <- code }()
	<-h.Arrived()
	h.Release()
	if code := <-answered; code != http.StatusOK {
		t.Fatalf("the released initialize: HTTP %d, want 200", code)
	}
	if n := s.Requests("initialize"); n != 2 {
		t.Fatalf("Requests(initialize) = %d, want 2", n)
	}
}
