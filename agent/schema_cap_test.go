package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestCapSchema (SPEC F1): annotations go wherever a schema appears,
// properties named like annotations stay, every validation keyword stays,
// long nested descriptions are cut, the output is canonical.
func TestCapSchema(t *testing.T) {
	long := strings.Repeat("word ", 100)
	tests := []struct {
		name, in, want string
	}{
		{"empty", ``, emptySchema},
		{"annotations dropped at every level",
			`{"$schema":"http://json-schema.org/draft-07/schema#","title":"T","type":"object","x-vendor":1,` +
				`"properties":{"a":{"type":"string","title":"A","examples":["x"],"deprecated":true,"default":"d"}}}`,
			`{"properties":{"a":{"default":"d","type":"string"}},"type":"object"}`},
		{"properties named like annotations are kept",
			`{"type":"object","properties":{"title":{"type":"string"},"examples":{"type":"array","items":{"type":"string","title":"x"}}},"required":["title"]}`,
			`{"properties":{"examples":{"items":{"type":"string"},"type":"array"},"title":{"type":"string"}},"required":["title"],"type":"object"}`},
		{"validation keywords kept",
			`{"type":"object","additionalProperties":false,"required":["n"],"properties":{"n":{"type":"integer","minimum":1,"maximum":100},` +
				`"e":{"enum":["a","b"]},"u":{"anyOf":[{"type":"string","pattern":"^x"},{"$ref":"#/$defs/D"}]}},"$defs":{"D":{"type":"null","title":"D"}}}`,
			`{"$defs":{"D":{"type":"null"}},"additionalProperties":false,"properties":{"e":{"enum":["a","b"]},"n":{"maximum":100,"minimum":1,"type":"integer"},` +
				`"u":{"anyOf":[{"pattern":"^x","type":"string"},{"$ref":"#/$defs/D"}]}},"required":["n"],"type":"object"}`},
		{"long nested description cut",
			`{"type":"object","properties":{"a":{"type":"string","description":"` + long + `"}}}`,
			`{"properties":{"a":{"description":"` + capText(long, MaxParamDescription) + `","type":"string"}},"type":"object"}`},
		{"big numbers kept exactly", `{"type":"integer","maximum":9007199254740993}`, `{"maximum":9007199254740993,"type":"integer"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CapSchema(json.RawMessage(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	for _, bad := range []string{`[`, `[1]`, `"x"`} {
		if _, err := CapSchema(json.RawMessage(bad)); err == nil {
			t.Errorf("CapSchema(%s): got no error, want one", bad)
		}
	}
}

// TestCapText: folded whitespace, a byte cap on a rune boundary, a visible
// ellipsis.
func TestCapText(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"short  text\n", 20, "short text"},
		{"abcdefghij", 8, "abcde…"},
		{"ééééé", 8, "éé…"},
	}
	for _, tt := range tests {
		if got := capText(tt.in, tt.limit); got != tt.want || len(got) > tt.limit {
			t.Errorf("capText(%q, %d): got %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}

// TestCapSchemaRealCatalogs (SPEC F1): over every real catalog schema the
// capped schema is never larger, and keeps the required list and each
// property's type and enum.
func TestCapSchemaRealCatalogs(t *testing.T) {
	type shape struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		} `json:"properties"`
	}
	for _, c := range loadCatalogs(t, fullCatalogs) {
		got, err := CapSchema(c.schema)
		if err != nil {
			t.Errorf("%s/%s: %v", c.server, c.name, err)
			continue
		}
		var a, b shape
		if json.Unmarshal(c.schema, &a) != nil || json.Unmarshal(got, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s/%s: capped schema changed required, types or enums:\n%s\n%s", c.server, c.name, c.schema, got)
		}
		if len(got) > len(c.schema)+2 {
			t.Errorf("%s/%s: capped schema is larger (%d > %d bytes)", c.server, c.name, len(got), len(c.schema))
		}
	}
}

// TestSearchIndex: ranking on a small catalog — exact names first, words
// split from snake, kebab and camel case, stems and related words.
func TestSearchIndex(t *testing.T) {
	ix := NewSearchIndex([]SearchEntry{
		{Name: "mcp_list_issues", Tool: "list_issues", Label: "github", Description: "List issues in a repository."},
		{Name: "mcp_createPullRequest", Tool: "createPullRequest", Label: "github", Description: "Open a new pull request."},
		{Name: "mcp_delete-file", Tool: "delete-file", Label: "fs", Description: "Remove a file.", Params: []string{"path"}},
		{Name: "mcp_issue", Tool: "issue", Label: "tracker", Description: "Read one issue."},
	})
	tests := []struct {
		query, want string
	}{
		{"issue", "mcp_issue"},
		{"MCP_LIST_ISSUES", "mcp_list_issues"},
		{"delete_file", "mcp_delete-file"},
		{"listing issues", "mcp_list_issues"},
		{"create a pull request", "mcp_createPullRequest"},
		{"erase a document", "mcp_delete-file"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := ix.Search(tt.query, 3)
			if len(res) == 0 || res[0].Name != tt.want {
				t.Fatalf("got %+v, want %s first", res, tt.want)
			}
		})
	}
	if res := ix.Search("zebra", 3); len(res) != 0 {
		t.Errorf("got %+v for an unrelated word, want nothing", res)
	}
	if res := ix.Search("issue", 0); res != nil {
		t.Errorf("limit 0: got %+v, want nil", res)
	}
}
