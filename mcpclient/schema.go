package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// schemaLimits bound a tool's input schema (SPEC F1, and the "schemas with
// thousands of properties or cycles" of issue 3).
type schemaLimits struct {
	MaxBytes      int // compacted size
	MaxDepth      int // nesting of objects and arrays
	MaxProperties int // "properties" members, summed over the whole schema
	MaxRefs       int // $ref occurrences
}

var defaultSchemaLimits = schemaLimits{MaxBytes: 64 << 10, MaxDepth: 32, MaxProperties: 1000, MaxRefs: 256}

// boundSchema checks a tool's inputSchema and returns it compacted. A schema
// is rejected, with a reason fit to show, when it is not a JSON object of
// type "object", exceeds a limit, uses a $ref that is not local, or refers
// to itself through $ref (a cycle). Property order and every keyword are
// kept as the server sent them; strings inside stay JSON-escaped, so
// consumers that display decoded schema text must neutralize it.
func boundSchema(raw []byte, lim schemaLimits) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, fmt.Errorf("inputSchema is missing")
	}
	if len(raw) > 4*lim.MaxBytes {
		return nil, fmt.Errorf("inputSchema is %d bytes; at most %d are accepted", len(raw), lim.MaxBytes)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("inputSchema is not valid JSON")
	}
	if buf.Len() > lim.MaxBytes {
		return nil, fmt.Errorf("inputSchema is %d bytes; at most %d are accepted", buf.Len(), lim.MaxBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("inputSchema is not valid JSON")
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("inputSchema is not a JSON object")
	}
	if t, _ := obj["type"].(string); t != "object" {
		return nil, fmt.Errorf(`inputSchema must have "type": "object"`)
	}
	w := schemaWalk{lim: lim, root: root}
	if err := w.walk(root, 0); err != nil {
		return nil, err
	}
	if err := w.checkCycles(); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.Clone(buf.Bytes())), nil
}

type schemaWalk struct {
	lim   schemaLimits
	root  any
	props int
	refs  int
	edges []schemaEdge
}

type schemaEdge struct {
	from any    // the node that holds $ref
	ref  string // its local JSON pointer
}

func (w *schemaWalk) walk(node any, depth int) error {
	if depth > w.lim.MaxDepth {
		return fmt.Errorf("inputSchema nests deeper than %d levels", w.lim.MaxDepth)
	}
	switch v := node.(type) {
	case map[string]any:
		if p, ok := v["properties"].(map[string]any); ok {
			w.props += len(p)
			if w.props > w.lim.MaxProperties {
				return fmt.Errorf("inputSchema has more than %d properties", w.lim.MaxProperties)
			}
		}
		if s, ok := v["$ref"].(string); ok {
			if !strings.HasPrefix(s, "#") {
				return fmt.Errorf("inputSchema uses a $ref that is not local to the schema")
			}
			w.refs++
			if w.refs > w.lim.MaxRefs {
				return fmt.Errorf("inputSchema has more than %d $ref uses", w.lim.MaxRefs)
			}
			w.edges = append(w.edges, schemaEdge{from: node, ref: s})
		}
		for _, child := range v {
			if err := w.walk(child, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range v {
			if err := w.walk(child, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolvePointer follows a local JSON pointer ("#/a/b") from the root.
func resolvePointer(root any, ref string) (any, bool) {
	ptr := strings.TrimPrefix(ref, "#")
	if ptr == "" {
		return root, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false // anchors ("#foo") are not supported
	}
	node := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := node.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, false
			}
			node = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			node = v[i]
		default:
			return nil, false
		}
	}
	return node, true
}

// checkCycles rejects dangling references and reference cycles. A $ref
// whose target contains (at any depth) a $ref leading back to it means the
// schema can only be expanded forever.
func (w *schemaWalk) checkCycles() error {
	if len(w.edges) == 0 {
		return nil
	}
	// For each $ref-holding node, the $ref-holding nodes reachable inside its
	// target without crossing another $ref.
	targets := make(map[any]any, len(w.edges)) // node identity → target node
	for _, e := range w.edges {
		t, ok := resolvePointer(w.root, e.ref)
		if !ok {
			return fmt.Errorf("inputSchema has a $ref to a missing definition")
		}
		targets[nodeKey(e.from)] = t
	}
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[any]int{}
	var visit func(refNode any) bool
	visit = func(refNode any) bool {
		k := nodeKey(refNode)
		switch state[k] {
		case visiting:
			return true
		case done:
			return false
		}
		state[k] = visiting
		cycle := false
		collectRefNodes(targets[k], func(n any) bool {
			if visit(n) {
				cycle = true
				return false
			}
			return true
		})
		state[k] = done
		return cycle
	}
	for _, e := range w.edges {
		if visit(e.from) {
			return fmt.Errorf("inputSchema refers to itself through $ref (a cycle)")
		}
	}
	return nil
}

// nodeKey gives a comparable identity for a decoded JSON object node.
func nodeKey(n any) any {
	if m, ok := n.(map[string]any); ok {
		return fmt.Sprintf("%p", m)
	}
	return n
}

// collectRefNodes calls fn for each object holding a $ref within node,
// including node itself. fn returns false to stop.
func collectRefNodes(node any, fn func(any) bool) bool {
	switch v := node.(type) {
	case map[string]any:
		if _, ok := v["$ref"].(string); ok {
			if !fn(v) {
				return false
			}
		}
		for _, child := range v {
			if !collectRefNodes(child, fn) {
				return false
			}
		}
	case []any:
		for _, child := range v {
			if !collectRefNodes(child, fn) {
				return false
			}
		}
	}
	return true
}
