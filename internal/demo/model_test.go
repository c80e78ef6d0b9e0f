package demo_test

import (
	"context"
	"testing"

	"vouch/agent"
	"vouch/internal/demo"
)

// TestNewModel: the demo's model, as `vouch demo` starts it, lists the one
// model it was given and reports an 8192-token window through llama.cpp's
// own endpoint, as a real local server would (SPEC A3).
func TestNewModel(t *testing.T) {
	srv, err := demo.NewModel("vouch-demo")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	c := agent.NewClient(srv.URL(), "", nil)
	ctx := context.Background()
	models, err := c.Models(ctx)
	if err != nil || len(models) != 1 || models[0].ID != "vouch-demo" {
		t.Fatalf("Models() = %+v, %v; want only vouch-demo", models, err)
	}
	n, source, err := c.ContextWindow(ctx, "vouch-demo")
	if err != nil || n != 8192 {
		t.Fatalf("ContextWindow() = %d (%s), %v; want 8192", n, source, err)
	}
}
