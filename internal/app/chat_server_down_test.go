package app

import (
	"context"
	"net"
	"strings"
	"testing"

	"vouch/agent"
)

// TestSendWithTheServerDownSaysSo (SPEC A1, L3; issue 28 item 11): with
// the model server down no model could be chosen; sending says that the
// server does not answer, at its URL, instead of "no model is chosen;
// press ctrl+o".
func TestSendWithTheServerDownSaysSo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	if err := ln.Close(); err != nil { // nothing listens there now
		t.Fatal(err)
	}
	chat := NewChat(ChatConfig{ModelURL: url, Limits: agent.DefaultLimits()})
	_, err = chat.Send(context.Background(), "", "hello")
	if err == nil {
		t.Fatal("Send succeeded with the server down")
	}
	if msg := err.Error(); strings.Contains(msg, "no model is chosen") || !strings.Contains(msg, ln.Addr().String()) {
		t.Errorf("Send says %q; want the server's failure at its address", msg)
	}
}
