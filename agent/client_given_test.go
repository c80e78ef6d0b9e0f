package agent

import (
	"context"
	"net"
	"strings"
	"testing"
)

// TestAdviceDoesNotRepeatTheGivenFlag (SPEC A1; issue 28 item 12): when
// the person named the URL, a refused connection asks to check that
// address instead of saying to pass --model-url, which they did; a URL
// vouch found itself still says how to name one.
func TestAdviceDoesNotRepeatTheGivenFlag(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	found := NewClient(url, "", nil)
	if _, err := found.Models(context.Background()); err == nil || !strings.Contains(err.Error(), "or pass --model-url") {
		t.Errorf("a found URL: %v", err)
	}
	given := NewClient(url, "", nil)
	given.URLGiven()
	_, err = given.Models(context.Background())
	if err == nil || strings.Contains(err.Error(), "--model-url") || !strings.Contains(err.Error(), "check the address you gave") {
		t.Errorf("a given URL: %v", err)
	}
}
