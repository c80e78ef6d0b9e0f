package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Pinned tool definitions (SPEC D8).
//
// A rule binds to the tool's definition as the person saw it when they
// classified it: its name, title, description, input and output schema,
// annotations, and who may call it (its MCP Apps visibility, when the
// server names one). The definition is written in one canonical JSON form —
// object keys sorted, no insignificant white space, numbers exactly as the
// server wrote them, strings re-escaped one way — so that a server that
// only reorders keys or re-indents has not changed its tool, and any other
// difference has. Digest is the sha256 of that form. Whoever serves the
// tool (mcpclient's catalog) computes the digest once per fetched
// definition; a decision then compares two strings.

// Definition is one tool's definition as a server serves it. The schemas
// and annotations are JSON (nil when absent).
type Definition struct {
	Name         string
	Title        string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Annotations  json.RawMessage
	// Visibility is the tool's MCP Apps audiences ("model", "app"), in any
	// order; nil when the server names none (the default, both), which
	// leaves the canonical form as it was before visibility counted.
	Visibility []string
}

// Pin is the definition a rule was classified against: its digest and its
// canonical JSON, kept so the approval pane can show what changed.
type Pin struct {
	Digest     string        `json:"digest"`
	Definition CanonicalJSON `json:"definition,omitempty"`
}

// CanonicalJSON is a definition in canonical form. It is a string, so
// copies share nothing mutable (a Snapshot hands out pins without copying
// their bytes), and it marshals as the JSON it holds; unmarshalling puts
// the JSON back in canonical form.
type CanonicalJSON string

// MarshalJSON implements json.Marshaler.
func (c CanonicalJSON) MarshalJSON() ([]byte, error) {
	if c == "" {
		return []byte("null"), nil
	}
	return []byte(c), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *CanonicalJSON) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*c = ""
		return nil
	}
	var out bytes.Buffer
	if err := canonicalValue(&out, b); err != nil {
		return err
	}
	*c = CanonicalJSON(out.String())
	return nil
}

// Change says that a rule's tool serves a definition other than the one
// its rule pinned. Pinned is the canonical definition the person
// classified; Served is the one served now, filled by whoever knows it
// (the policy sees only its digest). Either may be empty when unknown.
type Change struct {
	Pinned CanonicalJSON
	Served CanonicalJSON
}

// ReasonChanged is why a tool whose definition changed asks.
const ReasonChanged = "This tool's definition changed since you classified it, so your rule no longer applies; review what changed, then classify it again to pin the new definition."

// ReasonUnseen is why a tool asks whose rule was set before any server
// served it: nobody saw the definition it serves now.
const ReasonUnseen = "You set this rule before vouch had seen the tool, so it asks once: review the definition served now; allowing this call pins your rule to it."

// ErrDefinition means a definition could not be put in canonical form: a
// schema or annotations that are not JSON, repeat an object key, or nest
// too deeply. Such a tool pins nothing and no pinned rule applies to it.
var ErrDefinition = errors.New("the tool definition cannot be canonicalized")

// maxCanonicalDepth bounds the nesting canonicalization follows.
const maxCanonicalDepth = 128

// digestPrefix starts every definition digest.
const digestPrefix = "sha256:"

// Canonical returns the canonical JSON of d: an object with the keys
// annotations, description, input_schema, name, output_schema and title,
// in that order, absent schemas and annotations as null, then — only when
// d names one — visibility, its audiences sorted and each once.
func Canonical(d Definition) (CanonicalJSON, error) {
	var b bytes.Buffer
	b.WriteString(`{"annotations":`)
	if err := canonicalValue(&b, d.Annotations); err != nil {
		return "", fmt.Errorf("annotations of %q: %w", d.Name, err)
	}
	b.WriteString(`,"description":`)
	writeString(&b, d.Description)
	b.WriteString(`,"input_schema":`)
	if err := canonicalValue(&b, d.InputSchema); err != nil {
		return "", fmt.Errorf("input schema of %q: %w", d.Name, err)
	}
	b.WriteString(`,"name":`)
	writeString(&b, d.Name)
	b.WriteString(`,"output_schema":`)
	if err := canonicalValue(&b, d.OutputSchema); err != nil {
		return "", fmt.Errorf("output schema of %q: %w", d.Name, err)
	}
	b.WriteString(`,"title":`)
	writeString(&b, d.Title)
	if d.Visibility != nil {
		b.WriteString(`,"visibility":[`)
		for i, v := range slices.Compact(slices.Sorted(slices.Values(d.Visibility))) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(&b, v)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return CanonicalJSON(b.String()), nil
}

// Digest returns the digest of a canonical definition: "sha256:" and 64
// hex digits.
func Digest(canonical CanonicalJSON) string {
	sum := sha256.Sum256([]byte(canonical))
	return digestPrefix + hex.EncodeToString(sum[:])
}

// PinOf returns the pin of d: its digest and canonical form.
func PinOf(d Definition) (Pin, error) {
	c, err := Canonical(d)
	if err != nil {
		return Pin{}, err
	}
	return Pin{Digest: Digest(c), Definition: c}, nil
}

// ParseCanonical reads a canonical definition back, e.g. to show what
// changed. Schemas and annotations stay canonical JSON (nil for null).
func ParseCanonical(canonical CanonicalJSON) (Definition, error) {
	var w struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"input_schema"`
		OutputSchema json.RawMessage `json:"output_schema"`
		Annotations  json.RawMessage `json:"annotations"`
		Visibility   []string        `json:"visibility"`
	}
	if err := json.Unmarshal([]byte(canonical), &w); err != nil {
		return Definition{}, fmt.Errorf("%w: %v", ErrDefinition, err)
	}
	nullable := func(r json.RawMessage) json.RawMessage {
		if string(r) == "null" {
			return nil
		}
		return r
	}
	return Definition{Name: w.Name, Title: w.Title, Description: w.Description,
		InputSchema: nullable(w.InputSchema), OutputSchema: nullable(w.OutputSchema), Annotations: nullable(w.Annotations),
		Visibility: w.Visibility}, nil
}

// CanonicalOf puts a definition stored in any JSON encoding back in
// canonical form: the same definition HTML-escaped by json.Marshal
// (`=\u003e` for `=>`), with non-ASCII escaped, or re-indented gives the
// same bytes, so its digest is the pin's (SPEC D8). What is not one JSON
// value is an error wrapping ErrDefinition.
func CanonicalOf(raw []byte) (CanonicalJSON, error) {
	var c CanonicalJSON
	if err := c.UnmarshalJSON(raw); err != nil {
		return "", err
	}
	return c, nil
}

// canonicalValue writes the canonical form of the JSON value raw ("null"
// when raw is empty).
func canonicalValue(b *bytes.Buffer, raw json.RawMessage) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		b.WriteString("null")
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := canonicalNext(b, dec, 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: text follows the JSON value", ErrDefinition)
	}
	return nil
}

// canonicalNext writes the next value of dec in canonical form.
func canonicalNext(b *bytes.Buffer, dec *json.Decoder, depth int) error {
	if depth > maxCanonicalDepth {
		return fmt.Errorf("%w: it nests deeper than %d levels", ErrDefinition, maxCanonicalDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDefinition, err)
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			b.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				if err := canonicalNext(b, dec, depth+1); err != nil {
					return err
				}
			}
			b.WriteByte(']')
			_, err := dec.Token() // ']'
			return wrapDef(err)
		}
		return canonicalObject(b, dec, depth)
	case string:
		writeString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
	return nil
}

// canonicalObject writes the members of the object whose '{' dec just
// read, sorted by key. A repeated key is refused: parsers disagree on
// which copy counts, so no one copy can be pinned.
func canonicalObject(b *bytes.Buffer, dec *json.Decoder, depth int) error {
	type member struct{ key, val string }
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return wrapDef(err)
		}
		key, _ := tok.(string)
		var vb bytes.Buffer
		if err := canonicalNext(&vb, dec, depth+1); err != nil {
			return err
		}
		members = append(members, member{key, vb.String()})
	}
	if _, err := dec.Token(); err != nil { // '}'
		return wrapDef(err)
	}
	slices.SortStableFunc(members, func(a, c member) int { return strings.Compare(a.key, c.key) })
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			if members[i-1].key == m.key {
				return fmt.Errorf("%w: the key %q appears twice in one object", ErrDefinition, m.key)
			}
			b.WriteByte(',')
		}
		writeString(b, m.key)
		b.WriteByte(':')
		b.WriteString(m.val)
	}
	b.WriteByte('}')
	return nil
}

func wrapDef(err error) error {
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDefinition, err)
	}
	return nil
}

// writeString writes s as a JSON string, escaping only what JSON requires
// (and U+2028, U+2029), so one string has one canonical spelling.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
