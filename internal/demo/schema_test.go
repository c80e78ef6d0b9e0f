package demo_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"vouch/internal/demo"
)

// TestToolSchemasValidate: the demo tools' input schemas compile and
// validate arguments with the JSON Schema validator mcp-go's server uses —
// vouch's copy, which compiles the drafts' meta-schemas before the first
// Compile instead of at package init (go.mod; issue 29 item 1). Several
// goroutines compile at once, so the first ones wait for the meta-schemas
// rather than see them half made; a schema that breaks its meta-schema is
// still refused.
func TestToolSchemasValidate(t *testing.T) {
	var wg sync.WaitGroup
	for i, name := range append(demo.ToolNames(), demo.ToolNames()...) {
		wg.Go(func() {
			tool, _, _ := demo.Tool(name, func(string) int { return 0 })
			raw, err := json.Marshal(tool.InputSchema)
			if err != nil {
				t.Error(err)
				return
			}
			sch := compile(t, fmt.Sprintf("mem://%s-%d.json", name, i), raw)
			if sch == nil {
				return
			}
			if err := sch.Validate(map[string]any{}); err == nil {
				t.Errorf("%s: arguments missing a required property validated", name)
			}
		})
	}
	wg.Wait()
	sch := compile(t, "mem://echo.json", []byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`))
	if err := sch.Validate(map[string]any{"text": "hi"}); err != nil {
		t.Errorf("good arguments: %v", err)
	}
	if err := sch.Validate(map[string]any{"text": 3}); err == nil || !strings.Contains(err.Error(), "string") {
		t.Errorf("a number for a string: %v, want a validation error naming the type", err)
	}
	c := jsonschema.NewCompiler()
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"type": 5}`))
	if err := c.AddResource("mem://bad.json", doc); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("mem://bad.json"); err == nil {
		t.Error(`{"type": 5} compiled; want the meta-schema to refuse it`)
	}
}

func compile(t *testing.T, url string, raw []byte) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Error(err)
		return nil
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		t.Error(err)
		return nil
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Errorf("compile %s: %v", url, err)
		return nil
	}
	return sch
}
