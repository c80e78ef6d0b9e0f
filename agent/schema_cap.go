package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
	"vouch/tool"
)

// Caps of what the model is told about one tool (SPEC F1).
const (
	// MaxToolDescription bounds a tool's description as sent inline or
	// shown by tool_inspect, in bytes.
	MaxToolDescription = 512
	// MaxListingLine bounds the one-line summary of a tool in tool_search
	// results, in bytes.
	MaxListingLine = 120
	// MaxParamDescription bounds the description of one property (or any
	// nested schema) in a sent schema, in bytes.
	MaxParamDescription = 160
)

// ellipsis marks text that vouch cut.
const ellipsis = "…"

// capText cuts s (whitespace runs folded to one space) to at most limit
// bytes on a UTF-8 boundary, ending with an ellipsis when cut.
func capText(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= limit {
		return s
	}
	keep := max(limit-len(ellipsis), 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return strings.TrimRight(s[:keep], " ") + ellipsis
}

// firstLine is the first sentence or line of a description, capped at
// MaxListingLine: what tool_search shows.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return capText(s, MaxListingLine)
}

// annotationKeys are JSON Schema keywords that do not take part in
// validation; CapSchema drops them wherever a schema appears.
var annotationKeys = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$anchor": true,
}

// Keywords whose value is a map of name → schema, a single schema, or a
// list of schemas.
var (
	schemaMapKeys  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}
	schemaOneKeys  = map[string]bool{"items": true, "additionalProperties": true, "not": true, "contains": true, "if": true, "then": true, "else": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true, "additionalItems": true}
	schemaListKeys = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true}
)

// CapSchema returns the schema a model is sent for a tool (SPEC F1): the
// same JSON Schema with its annotations removed wherever a schema appears
// ($schema, $id, $comment, title, examples, deprecated, readOnly,
// writeOnly, "x-" extensions) and every nested description folded and cut
// to MaxParamDescription bytes. Every keyword that takes part in
// validation (type, properties, required, enum, const, items, formats,
// bounds, patterns, additionalProperties, $ref and $defs, …) is kept as it
// was, and a property named like an annotation ("title") is a property, not
// an annotation, so the capped schema accepts exactly the arguments the
// full schema accepts. vouch itself checks only that arguments are one JSON
// object (SPEC A2); the server validates them against its full schema.
//
// The output is compact JSON with keys in sorted order, so the same schema
// always gives the same bytes (and the same token count). An empty schema
// becomes {"type":"object","properties":{}}; one that is not a JSON object
// is an error.
func CapSchema(schema json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return json.RawMessage(emptySchema), nil
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("parameters are not valid JSON: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("parameters are not a JSON object")
	}
	out, err := json.Marshal(capNode(m))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// capNode caps one schema object.
func capNode(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch {
		case annotationKeys[k] || strings.HasPrefix(k, "x-"):
			continue
		case k == "description":
			if s, ok := v.(string); ok {
				out[k] = capText(s, MaxParamDescription)
				continue
			}
		case schemaMapKeys[k]:
			if props, ok := v.(map[string]any); ok {
				capped := make(map[string]any, len(props))
				for name, sub := range props {
					capped[name] = capAny(sub)
				}
				out[k] = capped
				continue
			}
		case schemaOneKeys[k]:
			out[k] = capAny(v)
			continue
		case schemaListKeys[k]:
			if list, ok := v.([]any); ok {
				capped := make([]any, len(list))
				for i, sub := range list {
					capped[i] = capAny(sub)
				}
				out[k] = capped
				continue
			}
		}
		out[k] = v
	}
	return out
}

// capAny caps a value in schema position: an object is a schema, a list
// (old-style "items": [...]) a list of schemas, anything else (true,
// false) stays.
func capAny(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return capNode(t)
	case []any:
		out := make([]any, len(t))
		for i, sub := range t {
			out[i] = capAny(sub)
		}
		return out
	}
	return v
}

// CapTool returns def as the model is told about it: the description
// folded and cut to MaxToolDescription bytes and the schema capped by
// CapSchema. The identity is unchanged. What it makes is kept across
// sessions: a change to it must change planEntryVersion (plan_store.go).
func CapTool(def tool.Def) (tool.Def, error) {
	params, err := CapSchema(def.Parameters)
	if err != nil {
		return tool.Def{}, err
	}
	return tool.Def{Identity: def.Identity, Description: capText(def.Description, MaxToolDescription), Parameters: params}, nil
}

// paramNames lists the top-level property names of a schema, for search.
func paramNames(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	return names
}
