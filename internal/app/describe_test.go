package app

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
)

// TestWaitToolChangeSeesARugPull (SPEC D8; issue 24 item 1): an approval
// pane waits on WaitToolChange; while the served definition stays, it
// waits; when the server changes the tool, it returns the tool as served
// now, with its new digest and claims.
func TestWaitToolChangeSeesARugPull(t *testing.T) {
	a, id, srv := appWithTestServer(t, mcptest.Options{}, "files")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := a.MCP().Manager().Refresh(ctx, id, mcpclient.NonInteractive); err != nil {
		t.Fatal(err)
	}
	identity := mcpclient.Identity(id, "lookup")
	before, err := a.DescribeTool(identity)
	if err != nil || before.Digest == "" {
		t.Fatalf("DescribeTool = %+v, %v; want the served definition's digest", before, err)
	}
	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	defer stop()
	if _, err := a.WaitToolChange(short, identity, before.Digest); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitToolChange with nothing changed = %v, want the context's end", err)
	}

	type result struct {
		d   ToolDescription
		err error
	}
	got := make(chan result, 1)
	go func() {
		d, err := a.WaitToolChange(ctx, identity, before.Digest)
		got <- result{d, err}
	}()
	if err := srv.RugPull("lookup"); err != nil {
		t.Fatal(err)
	}
	if err := a.MCP().Manager().Refresh(ctx, id, mcpclient.NonInteractive); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.err != nil || r.d.Digest == before.Digest || r.d.Digest == "" {
		t.Fatalf("after the rug pull: %+v, %v; want a new digest", r.d, r.err)
	}
	if !slices.Contains(r.d.Claims, "destructiveHint: true") {
		t.Errorf("claims after the rug pull = %v, want the new destructiveHint", r.d.Claims)
	}
}
