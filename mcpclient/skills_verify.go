package mcpclient

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"
)

// This file checks content against entries (SPEC I2, I4): every file read
// against the listed digest and size, SKILL.md's frontmatter against the
// entry's, and what changed between two resource sets (SPEC I3).

func sortFiles(fs []SkillFile) {
	slices.SortFunc(fs, func(a, b SkillFile) int { return cmp.Compare(a.URI, b.URI) })
}

func verifyFailed(format string, args ...any) error {
	return &Error{Kind: ErrSkillVerification, Sentence: fmt.Sprintf(format, args...)}
}

// VerifySkillFile checks data, read at uri, against the entry: the file
// must be listed, and its size and sha256 must equal the listed ones. A
// failure means the content must not be used; the error's sentence says
// why.
func VerifySkillFile(e SkillEntry, uri string, data []byte) error {
	f, ok := e.File(uri)
	if !ok {
		return verifyFailed("The file %q is not listed in the approved skill %q, so vouch does not use it; approve the skill's current listing to reach it.", cleanText(uri, 200), e.Name)
	}
	if int64(len(data)) != f.Size {
		return verifyFailed("The file %q of skill %q is %d bytes, but the approved listing says %d; it may have been changed or tampered with, so vouch does not use it.",
			cleanText(uri, 200), e.Name, len(data), f.Size)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != f.SHA256 {
		return verifyFailed("The file %q of skill %q does not match the digest in the approved listing; it may have been changed or tampered with, so vouch does not use it.",
			cleanText(uri, 200), e.Name)
	}
	return nil
}

// VerifySkillFrontmatter parses the YAML frontmatter of a SKILL.md and
// compares it field by field with the entry's frontmatter (SPEC I4). Any
// difference means the skill is not loaded.
func VerifySkillFrontmatter(e SkillEntry, skillMD []byte) error {
	got, err := frontmatterValue(skillMD)
	if err != nil {
		return verifyFailed("The SKILL.md of skill %q has no readable frontmatter (%s), so vouch does not load it.", e.Name, err.Error())
	}
	var want any
	if err := json.Unmarshal(e.Frontmatter, &want); err != nil {
		return verifyFailed("The listing's frontmatter of skill %q is not valid JSON, so vouch does not load it.", e.Name)
	}
	gotMap, _ := got.(map[string]any)
	wantMap, _ := want.(map[string]any)
	if gotMap == nil || wantMap == nil {
		return verifyFailed("The frontmatter of skill %q is not a mapping, so vouch does not load it.", e.Name)
	}
	keys := map[string]bool{}
	for k := range gotMap {
		keys[k] = true
	}
	for k := range wantMap {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	for _, k := range sorted {
		if !reflect.DeepEqual(gotMap[k], wantMap[k]) {
			return verifyFailed("The SKILL.md of skill %q says something else for the frontmatter field %q than the server's listing, so vouch does not load it.", e.Name, cleanText(k, 80))
		}
	}
	return nil
}

// frontmatterValue parses the YAML frontmatter at the start of a SKILL.md
// into JSON-shaped values (maps with string keys, []any, string, float64,
// bool, nil), so that it compares with the entry's JSON. Aliases and
// non-string keys are refused.
func frontmatterValue(md []byte) (any, error) {
	md = bytes.TrimPrefix(md, []byte("\ufeff"))
	var rest []byte
	switch {
	case bytes.HasPrefix(md, []byte("---\n")):
		rest = md[4:]
	case bytes.HasPrefix(md, []byte("---\r\n")):
		rest = md[5:]
	default:
		return nil, fmt.Errorf("it does not start with ---")
	}
	off := 0
	for line := range bytes.Lines(rest) {
		if bytes.Equal(bytes.TrimRight(line, "\r\n"), []byte("---")) {
			return yamlToJSONValue(rest[:off])
		}
		off += len(line)
	}
	return nil, fmt.Errorf("its closing --- is missing")
}

func yamlToJSONValue(src []byte) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("its YAML does not parse")
	}
	if doc.Kind == 0 {
		return map[string]any{}, nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("it is not one YAML document")
	}
	return nodeValue(doc.Content[0], 0)
}

func nodeValue(n *yaml.Node, depth int) (any, error) {
	if depth > 32 {
		return nil, fmt.Errorf("it nests deeper than 32 levels")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return nil, fmt.Errorf("it uses a YAML alias")
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" && k.ShortTag() != "!!int" && k.ShortTag() != "!!bool" && k.ShortTag() != "!!float" {
				return nil, fmt.Errorf("it has a key that is not a plain scalar")
			}
			if _, dup := m[k.Value]; dup {
				return nil, fmt.Errorf("it repeats the key %q", cleanText(k.Value, 80))
			}
			v, err := nodeValue(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, fmt.Errorf("it has an unreadable boolean")
			}
			return b, nil
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				// Values such as 0x1F decode as int only.
				var i int64
				if err := n.Decode(&i); err != nil {
					return nil, fmt.Errorf("it has an unreadable number")
				}
				return float64(i), nil
			}
			return f, nil
		}
		// Strings, timestamps and anything else: the text as written, as a
		// JSON rendering of the frontmatter carries it.
		return n.Value, nil
	}
	return nil, fmt.Errorf("it has an unsupported YAML node")
}

// SkillSetDigest is a short, stable digest of a resource set: the hex
// sha256 over the sorted "uri\x00sha256\x00size\n" lines. Two sets are the
// same exactly when their digests are; the approval preview shows it so that
// an approval names the set the person saw.
func SkillSetDigest(files []SkillFile) string {
	sorted := slices.Clone(files)
	sortFiles(sorted)
	h := sha256.New()
	for _, f := range sorted {
		h.Write([]byte(f.URI))
		h.Write([]byte{0})
		h.Write([]byte(f.SHA256))
		h.Write([]byte{0})
		h.Write([]byte(strconv.FormatInt(f.Size, 10)))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SkillChange is what differs between an approved resource set and a newer
// one (SPEC I3): URIs added, removed, and changed (same URI, another digest
// or size). It is empty when the sets are equal.
type SkillChange struct {
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Changed []string `json:"changed,omitempty"`
}

// Empty reports whether nothing changed.
func (c SkillChange) Empty() bool {
	return len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Changed) == 0
}

// String is one line for people, e.g. "1 file added (…), 1 changed (…)".
func (c SkillChange) String() string {
	if c.Empty() {
		return "no change"
	}
	var b bytes.Buffer
	part := func(n int, what string, uris []string) {
		if n == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d %s:", n, what)
		for i, u := range uris {
			if i == 5 {
				fmt.Fprintf(&b, " and %d more", len(uris)-5)
				break
			}
			b.WriteString(" ")
			b.WriteString(cleanText(u, 200))
		}
	}
	part(len(c.Added), "added", c.Added)
	part(len(c.Removed), "removed", c.Removed)
	part(len(c.Changed), "changed", c.Changed)
	return b.String()
}

// DiffSkillFiles compares an approved set with a newer one.
func DiffSkillFiles(approved, current []SkillFile) SkillChange {
	old := map[string]SkillFile{}
	for _, f := range approved {
		old[f.URI] = f
	}
	var c SkillChange
	seen := map[string]bool{}
	for _, f := range current {
		seen[f.URI] = true
		o, ok := old[f.URI]
		switch {
		case !ok:
			c.Added = append(c.Added, f.URI)
		case o.SHA256 != f.SHA256 || o.Size != f.Size:
			c.Changed = append(c.Changed, f.URI)
		}
	}
	for _, f := range approved {
		if !seen[f.URI] {
			c.Removed = append(c.Removed, f.URI)
		}
	}
	slices.Sort(c.Added)
	slices.Sort(c.Removed)
	slices.Sort(c.Changed)
	return c
}
