package app

import (
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// TestToolSelection (issue 18 item 22; SPEC F1–F3, L2): with a catalog
// of 117 tools active, the selection lists every tool with its cost and
// says each asks (no rule yet), and together they exceed an 8k window's
// budget; applying a selection turns exactly the rest off for this
// conversation — a run no longer offers them — and kept as the default,
// a new conversation starts with the same tools off.
func TestToolSelection(t *testing.T) {
	a, _ := appWithServer(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117}, "github")

	sel, err := a.ToolSelection(8192)
	if err != nil {
		t.Fatal(err)
	}
	var mcpTools, sum int
	var keep []string
	var all, off []string
	for _, c := range sel.Tools {
		all = append(all, c.Identity)
		sum += c.Tokens
		if c.Tokens <= 0 || !c.On {
			t.Errorf("%s: %d tokens, on %v", c.Identity, c.Tokens, c.On)
		}
		if !strings.HasPrefix(c.Identity, "mcp:") {
			continue
		}
		mcpTools++
		if !c.Asks || c.Server != "github" || strings.Contains(c.Name, ":") {
			t.Errorf("%+v: want an asking tool of github named by its name", c)
		}
		if len(keep) < 3 {
			keep = append(keep, c.Identity)
		} else {
			off = append(off, c.Identity)
		}
	}
	if mcpTools != 118 || sel.Budget <= 0 || sum <= sel.Budget {
		t.Fatalf("%d MCP tools, %d tokens against a budget of %d; want 118 tools over the budget", mcpTools, sum, sel.Budget)
	}

	if err := a.ApplyToolSelection(all, off, true); err != nil {
		t.Fatal(err)
	}
	offered := map[string]bool{}
	for _, tl := range a.RunTools() {
		offered[tl.Def().Identity] = true
	}
	for _, id := range keep {
		if !offered[id] {
			t.Errorf("kept tool %s is not offered", id)
		}
	}
	for _, id := range off {
		if offered[id] {
			t.Errorf("tool %s turned off is still offered", id)
		}
	}

	if _, err := a.NewConversation(); err != nil {
		t.Fatal(err)
	}
	sel, err = a.ToolSelection(8192)
	if err != nil {
		t.Fatal(err)
	}
	on := 0
	for _, c := range sel.Tools {
		if strings.HasPrefix(c.Identity, "mcp:") && c.On {
			on++
		}
	}
	if on != len(keep) {
		t.Errorf("a new conversation has %d MCP tools on, want the default's %d", on, len(keep))
	}
}
