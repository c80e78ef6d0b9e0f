package mcpclient

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func wideSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{}`, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

// TestBoundSchema covers the schema bounds of issue 3 (thousands of
// properties, cycles) and SPEC F1 (schemas capped).
func TestBoundSchema(t *testing.T) {
	deep := `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","items":`, 40) + `{}` + strings.Repeat(`}`, 40) + `}}`
	tests := []struct {
		name, schema, wantErr string
	}{
		{"simple", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`, ""},
		{"no properties", `{"type":"object"}`, ""},
		{"acyclic refs", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"},"b":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`, ""},
		{"draft-07 definitions", `{"type":"object","properties":{"a":{"$ref":"#/definitions/x"}},"definitions":{"x":{"type":"string"}}}`, ""},
		{"property named $ref", `{"type":"object","properties":{"$ref":{"type":"string"}}}`, ""},
		{"1000 properties", wideSchema(1000), ""},
		{"missing", ``, "missing"},
		{"null", `null`, "missing"},
		{"not json", `{"type":`, "not valid JSON"},
		{"string", `"object"`, "not a JSON object"},
		{"array type", `{"type":"array"}`, `"type": "object"`},
		{"no type", `{"properties":{}}`, `"type": "object"`},
		{"5000 properties", wideSchema(5000), "more than 1000 properties"},
		{"self cycle", `{"type":"object","properties":{"again":{"$ref":"#"}}}`, "cycle"},
		{"defs cycle", `{"type":"object","properties":{"n":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"c":{"$ref":"#/$defs/node"}}}}}`, "cycle"},
		{"mutual cycle", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"items":{"$ref":"#/$defs/a"}}}}`, "cycle"},
		{"dangling ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/none"}}}`, "missing definition"},
		{"remote ref", `{"type":"object","properties":{"a":{"$ref":"https://schemas.example/a.json"}}}`, "not local"},
		{"too deep", deep, "deeper than"},
		{"too big", `{"type":"object","description":"` + strings.Repeat("d", 70<<10) + `"}`, "bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := boundSchema([]byte(tt.schema), defaultSchemaLimits)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("boundSchema() error = %v, want none", err)
				}
				if !json.Valid(got) {
					t.Fatalf("boundSchema() = %s, not JSON", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("boundSchema() error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestBoundSchemaKeepsOrder(t *testing.T) {
	got, err := boundSchema([]byte(`{ "type": "object", "properties": {"z": {}, "a": {}} }`), defaultSchemaLimits)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"object","properties":{"z":{},"a":{}}}`; string(got) != want {
		t.Fatalf("boundSchema() = %s, want %s", got, want)
	}
}

// FuzzBoundSchema: never panics; an accepted schema is compact JSON within
// the limits.
func FuzzBoundSchema(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#"}}}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/properties/a"}}}`)
	f.Add(`{"type":"object","$defs":{"x":[{"$ref":"#/$defs/x/0"}]}}`)
	f.Add(wideSchema(3))
	f.Fuzz(func(t *testing.T, s string) {
		out, err := boundSchema([]byte(s), defaultSchemaLimits)
		if err != nil {
			return
		}
		if !json.Valid(out) || len(out) > defaultSchemaLimits.MaxBytes {
			t.Fatalf("accepted %q as %q", s, out)
		}
		var m map[string]any
		if json.Unmarshal(out, &m) != nil || m["type"] != "object" {
			t.Fatalf("accepted a non-object schema %q", out)
		}
	})
}
