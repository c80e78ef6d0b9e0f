package skills

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"vouch/safetext"
)

// escapedHidden reports frontmatter values whose parsed text holds a
// character that hides text from a reader — a bidi control, a tag or
// zero-width character, a C0 or C1 control — that the source line does not
// hold literally: a YAML escape such as "\u202E" or "\U000E0041" writes it
// with none of the bytes the line scanner looks for (SPEC G3, G8). The
// value is kept as written (every output path neutralises it), so the
// package is not refused; the finding is high for bidi overrides and
// isolates and tag characters, which change what a reader sees, so the
// install waits for the person to accept it by ID, and medium otherwise.
// head is the frontmatter's text; a node's line n is file line n+1.
func (fm *frontmatter) escapedHidden(doc *yaml.Node, head []byte) {
	lines := strings.Split(string(head), "\n")
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			src := ""
			if n.Line >= 1 && n.Line <= len(lines) {
				src = lines[n.Line-1]
			}
			if r, what, sev, ok := escapedHiddenRune(n.Value, src); ok {
				fm.Findings = append(fm.Findings, Finding{File: "SKILL.md", Line: n.Line + 1, Rule: RuleHiddenUnicode,
					Severity: sev, Action: ActionShown,
					Detail: fmt.Sprintf("frontmatter text holds U+%04X (%s) written as a YAML escape; a reader of the file does not see it", r, what)})
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
}

// escapedHiddenRune returns the first hidden character of value that src
// (the value's source line) does not contain literally, preferring a
// high-severity one.
func escapedHiddenRune(value, src string) (r rune, what, sev string, ok bool) {
	for _, c := range value {
		if c == '\t' || c == '\n' || c == '\r' || !safetext.Hidden(c) || strings.ContainsRune(src, c) {
			continue
		}
		w, s := hiddenRune(c, false), SeverityMedium
		switch {
		case c >= 0x202A && c <= 0x202E, c >= 0x2066 && c <= 0x2069, c >= 0xE0000 && c <= 0xE007F:
			s = SeverityHigh
		case w == "":
			w = "control character"
		}
		if !ok || (s == SeverityHigh && sev != SeverityHigh) {
			r, what, sev, ok = c, w, s, true
		}
		if sev == SeverityHigh {
			return r, what, sev, ok
		}
	}
	return r, what, sev, ok
}
