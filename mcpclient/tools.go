package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"vouch/policy"
)

// ToolInfo is one valid tool of a server, sanitized and bounded (SPEC B3,
// F1). Everything in it came from the server and is untrusted; text fields
// are already neutralized for the terminal.
type ToolInfo struct {
	// Name is the tool's name exactly as the server sent it (it passed
	// validation: printable, 1–128 bytes). Calls use it.
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// InputSchema is the server's JSON Schema, compacted and bounded.
	InputSchema json.RawMessage `json:"input_schema"`
	// OutputSchema is the server's schema of structured results, compacted
	// and bounded; nil when it declares none.
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	// Annotations are the server's claims (title, readOnlyHint,
	// destructiveHint, idempotentHint, openWorldHint), shown as claims and
	// never used to lower an approval requirement or to decide a retry
	// (SPEC D2, B7).
	Annotations map[string]any `json:"annotations,omitempty"`
	// Identity is "mcp:<serverUUID>:<Name>" (SPEC C1).
	Identity string `json:"identity"`
	// UI is the tool's MCP Apps metadata, nil when it has none (SPEC J1,
	// J2; see ui.go).
	UI *ToolUI `json:"ui,omitempty"`
	// Digest is policy.Digest of the definition's canonical form (name,
	// title, description, schemas, annotations, visibility; SPEC D8), computed by vouch
	// whenever a catalog is fetched or loaded, never read from the store.
	// It is "" when the definition cannot be canonicalized, and then no
	// pinned rule applies to the tool.
	Digest string `json:"-"`
}

// Definition returns the tool's definition as policy pins it (SPEC D8),
// its MCP Apps visibility included when the server names one.
func (t ToolInfo) Definition() (policy.Definition, error) {
	d := policy.Definition{Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
	if len(t.Annotations) > 0 {
		raw, err := json.Marshal(t.Annotations)
		if err != nil {
			return policy.Definition{}, fmt.Errorf("encode the annotations of %q: %w", cleanText(t.Name, 80), err)
		}
		d.Annotations = raw
	}
	if t.UI != nil && t.UI.VisibilitySet {
		// Who may call the tool is part of what the person classified:
		// an app-only tool later shown to the model serves another
		// definition (SPEC D8, J2).
		d.Visibility = append([]string{}, t.UI.Visibility...)
	}
	return d, nil
}

// Pin returns the tool's pin: its definition's digest and canonical form.
func (t ToolInfo) Pin() (policy.Pin, error) {
	d, err := t.Definition()
	if err != nil {
		return policy.Pin{}, err
	}
	return policy.PinOf(d)
}

// withDigest returns t with Digest computed.
func withDigest(t ToolInfo) ToolInfo {
	t.Digest = ""
	if p, err := t.Pin(); err == nil {
		t.Digest = p.Digest
	}
	return t
}

// Rejection is a tool definition that was skipped, with the reason (SPEC B3).
type Rejection struct {
	// Name is the offending name, neutralized and capped for display.
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Limits bound what a server can make vouch hold or show. Zero fields take
// the defaults noted.
type Limits struct {
	// MaxResultBytes caps the text of one tool result (default 64 KiB).
	MaxResultBytes int
	// MaxResponseBytes caps one HTTP response body; a larger one is
	// discarded as it streams in (default 16 MiB).
	MaxResponseBytes int64
	// MaxDescription caps a tool description (default 1 KiB).
	MaxDescription int
	// MaxTools caps the valid tools kept per server (default 512).
	MaxTools int
	// MaxSchemaBytes and MaxSchemaProperties bound one input schema
	// (defaults 64 KiB and 1,000 properties).
	MaxSchemaBytes      int
	MaxSchemaProperties int
}

func (l Limits) withDefaults() Limits {
	if l.MaxResultBytes <= 0 {
		l.MaxResultBytes = 64 << 10
	}
	if l.MaxResponseBytes <= 0 {
		l.MaxResponseBytes = 16 << 20
	}
	if l.MaxDescription <= 0 {
		l.MaxDescription = 1 << 10
	}
	if l.MaxTools <= 0 {
		l.MaxTools = 512
	}
	if l.MaxSchemaBytes <= 0 {
		l.MaxSchemaBytes = defaultSchemaLimits.MaxBytes
	}
	if l.MaxSchemaProperties <= 0 {
		l.MaxSchemaProperties = defaultSchemaLimits.MaxProperties
	}
	return l
}

func (l Limits) schema() schemaLimits {
	s := defaultSchemaLimits
	s.MaxBytes = l.MaxSchemaBytes
	s.MaxProperties = l.MaxSchemaProperties
	return s
}

// Bounds on tool text.
const (
	maxToolNameLen  = 128
	maxTitleLen     = 200
	maxRejections   = 100
	maxRejectedName = 80
)

// wireTool is a tool definition as listed; every field is decoded leniently
// so one bad field rejects one tool, not the list.
type wireTool struct {
	Name         json.RawMessage `json:"name"`
	Title        json.RawMessage `json:"title"`
	Description  json.RawMessage `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Meta         json.RawMessage `json:"_meta"`
	Execution    struct {
		TaskSupport json.RawMessage `json:"taskSupport"`
	} `json:"execution"`
}

// validateTools turns raw tool definitions into valid tools and rejections.
// Duplicated names reject every copy: vouch cannot know which one a call
// would reach.
func validateTools(serverID string, raws []json.RawMessage, lim Limits) ([]ToolInfo, []Rejection) {
	var tools []ToolInfo
	var rejected []Rejection
	reject := func(name, reason string) {
		if len(rejected) < maxRejections {
			rejected = append(rejected, Rejection{Name: cleanText(name, maxRejectedName), Reason: reason})
		}
	}
	parsed := make([]wireTool, len(raws))
	valid := make([]bool, len(raws))
	names := make([]string, len(raws))
	counts := map[string]int{}
	for i, raw := range raws {
		valid[i] = json.Unmarshal(raw, &parsed[i]) == nil
		names[i] = jsonString(parsed[i].Name) // "" for a missing or non-string name
		counts[names[i]]++
	}
	for i := range raws {
		name, w := names[i], parsed[i]
		if !valid[i] {
			reject("", "the tool definition is not a JSON object")
			continue
		}
		if reason := checkToolName(name); reason != "" {
			reject(name, reason)
			continue
		}
		if counts[name] > 1 {
			reject(name, fmt.Sprintf("%d tools share this name, so none of them is offered", counts[name]))
			continue
		}
		schema, err := boundSchema(w.InputSchema, lim.schema())
		if err != nil {
			reject(name, err.Error())
			continue
		}
		output, reason := boundOutputSchema(w.OutputSchema, lim.MaxSchemaBytes)
		if reason != "" {
			reject(name, reason)
			continue
		}
		if jsonString(w.Execution.TaskSupport) == "required" {
			// SPEC B9: vouch never makes task-augmented calls, so every
			// call of this tool would fail; it is neither offered nor
			// counted.
			reject(name, `the tool can only be called as a task (execution.taskSupport "required"), which vouch does not support`)
			continue
		}
		ui, reason := parseToolUI(w.Meta)
		if reason != "" {
			reject(name, reason)
			continue
		}
		if len(tools) >= lim.MaxTools {
			reject(name, fmt.Sprintf("the server lists more than %d tools", lim.MaxTools))
			continue
		}
		tools = append(tools, withDigest(ToolInfo{
			Name:         name,
			Title:        cleanText(jsonString(w.Title), maxTitleLen),
			Description:  cleanText(jsonString(w.Description), lim.MaxDescription),
			InputSchema:  schema,
			OutputSchema: output,
			Annotations:  annotations(w.Annotations),
			Identity:     Identity(serverID, name),
			UI:           ui,
		}))
	}
	return tools, rejected
}

// boundOutputSchema checks an optional outputSchema: absent, or a JSON
// object of at most max bytes once compacted. It returns the compacted
// schema or why the tool is rejected.
func boundOutputSchema(raw json.RawMessage, max int) (json.RawMessage, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, ""
	}
	var buf bytes.Buffer
	if len(raw) > 4*max || json.Compact(&buf, raw) != nil || buf.Len() > max {
		return nil, fmt.Sprintf("outputSchema is not valid JSON of at most %d bytes", max)
	}
	if buf.Bytes()[0] != '{' {
		return nil, "outputSchema is not a JSON object"
	}
	return buf.Bytes(), ""
}

// checkToolName returns why name is unusable, or "".
func checkToolName(name string) string {
	switch {
	case name == "":
		return "the tool has no name"
	case len(name) > maxToolNameLen:
		return fmt.Sprintf("the tool name is %d bytes; at most %d are accepted", len(name), maxToolNameLen)
	case !utf8.ValidString(name):
		return "the tool name is not valid UTF-8"
	case neutralize(name) != name || strings.ContainsAny(name, "\n\t"):
		return "the tool name contains control or invisible formatting characters"
	case strings.TrimSpace(name) != name:
		return "the tool name starts or ends with spaces"
	}
	return ""
}

// jsonString decodes a JSON string, or returns "" for anything else.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// annotations keeps the known annotation keys with the right types.
func annotations(raw json.RawMessage) map[string]any {
	var in map[string]json.RawMessage
	if json.Unmarshal(raw, &in) != nil || len(in) == 0 {
		return nil
	}
	out := map[string]any{}
	if t := jsonString(in["title"]); t != "" {
		out["title"] = cleanText(t, maxTitleLen)
	}
	for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		var b bool
		if v, ok := in[k]; ok && json.Unmarshal(v, &b) == nil {
			out[k] = b
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
