package skills

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// execKeyMark replaces each line of a removed frontmatter key. It is a YAML
// comment, so the frontmatter stays valid, and it holds no word a scanner
// rule looks for.
const execKeyMark = "# (a frontmatter key was removed here by vouch)"

// isExecKey reports whether a frontmatter key asks to run commands, install
// hooks or start an MCP server (SPEC G2, G6).
func isExecKey(key string) bool {
	lower := strings.ToLower(key)
	return execKeys[lower] || strings.HasPrefix(lower, "mcp") || strings.Contains(lower, "hook")
}

// stripExecKeys removes from SKILL.md's frontmatter every top-level key
// that asks to run or register something, with its whole value, as YAML
// keys: each line of the entry becomes a YAML comment, so the frontmatter
// still parses and line numbers do not move. It returns one stripped
// finding per key. A frontmatter that does not parse, or whose keys share
// lines (a flow mapping), is returned unchanged for parseSkillMD to refuse
// or flag.
func stripExecKeys(data []byte) (out []byte, findings []Finding) {
	lines := splitLines(data)
	if len(lines) < 2 {
		return data, nil
	}
	first := bytes.TrimPrefix(lines[0], []byte("\ufeff"))
	if strings.TrimRight(string(first), " \t\r") != "---" {
		return data, nil
	}
	end, size := 0, 0
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(string(lines[i]), " \t\r"); t == "---" || t == "..." {
			end = i
			break
		}
		size += len(lines[i]) + 1
		if size > MaxFrontmatterBytes {
			return data, nil
		}
	}
	if end == 0 {
		return data, nil
	}
	head := bytes.Join(lines[1:end], []byte("\n"))
	keys, ok := topLevelKeys(append(head, '\n'))
	if !ok {
		return data, nil
	}
	// keys[i].line is 1-based in head; head line n is lines[n].
	remove := make([]bool, len(lines))
	for i, k := range keys {
		if !isExecKey(k.name) {
			continue
		}
		last := end - 1
		if i+1 < len(keys) {
			last = keys[i+1].line - 1
		}
		for n := k.line; n <= last; n++ {
			remove[n] = true
		}
		lineWord := fmt.Sprintf("line %d", k.line+1)
		if last > k.line {
			lineWord = fmt.Sprintf("lines %d–%d", k.line+1, last+1)
		}
		findings = append(findings, Finding{File: "SKILL.md", Line: k.line + 1, Rule: RuleExecRequest, Action: ActionStripped,
			Detail: fmt.Sprintf("frontmatter key %q (%s) asks for command execution, hooks or an MCP server; vouch never runs anything from a package, so it was removed as a key with its value (the frontmatter stays valid YAML)", clip(k.name, 64), lineWord)})
	}
	if len(findings) == 0 {
		return data, nil
	}
	var b bytes.Buffer
	b.Grow(len(data))
	for n, l := range lines {
		if n > 0 {
			b.WriteByte('\n')
		}
		if remove[n] {
			b.WriteString(execKeyMark)
			continue
		}
		b.Write(l)
	}
	return b.Bytes(), findings
}

// splitLines splits data at "\n"; joining the parts with "\n" gives data.
func splitLines(data []byte) [][]byte {
	return bytes.Split(data, []byte("\n"))
}

type yamlKey struct {
	name string
	line int
}

// topLevelKeys lists a block mapping's keys with their lines; ok is false
// when head is not a block mapping of plain keys, each starting its own
// line after the previous entry.
func topLevelKeys(head []byte) (keys []yamlKey, ok bool) {
	defer func() { // the YAML parser must never take the import down
		if recover() != nil {
			keys, ok = nil, false
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(head, &doc); err != nil {
		return nil, false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || m.Style&yaml.FlowStyle != 0 {
		return nil, false
	}
	prev := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Line <= prev || v.Line < k.Line {
			return nil, false
		}
		prev = max(k.Line, lastLine(v))
		keys = append(keys, yamlKey{name: k.Value, line: k.Line})
	}
	return keys, true
}

// lastLine is the last line a node's parser position names (a lower bound
// of where its text ends).
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		l = max(l, lastLine(c))
	}
	return l
}
