package skills

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Frontmatter limits (Agent Skills specification where it sets one).
const (
	MaxFrontmatterBytes = 256 << 10
	MaxNameLen          = 64
	MaxDescriptionLen   = 1024 // characters
	// maxLongDescription is how long a description may be at all: one
	// beyond MaxDescriptionLen installs with a finding (real publishers
	// ship them: issue 28 item 21); one beyond this is refused.
	maxLongDescription  = 4 * MaxDescriptionLen
	MaxCompatibilityLen = 500  // characters
	maxFieldLen         = 1024 // license, metadata values, an allowed-tools entry
	maxMetadataKeys     = 64
	maxAllowedTools     = 64
	maxYAMLDepth        = 8
)

// skillNameRE is the specification's name: lower-case letters, digits and
// single hyphens, neither first nor last.
var skillNameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// execKeys are frontmatter keys some tools use to run commands, install
// hooks or start MCP servers. vouch honours none of them: each is stripped
// and shown as a finding (SPEC G2, G6).
var execKeys = set("hooks", "hook", "mcp", "mcpservers", "mcp-servers", "mcp_servers", "servers",
	"command", "commands", "run", "exec", "install", "setup", "preinstall", "postinstall",
	"entrypoint", "entry-point", "scripts", "shell", "startup", "on-load", "onload")

// frontmatter is SKILL.md's parsed header.
type frontmatter struct {
	Name, Description, License, Compatibility, Version string
	Metadata                                           map[string]string
	AllowedTools                                       []string
	Warnings                                           []string
	Findings                                           []Finding
	// Body is the text after the closing "---"; BodyLine its first line.
	Body     string
	BodyLine int
	// descLine is the line of the description key (0: none).
	descLine int
}

// parseSkillMD splits SKILL.md into its YAML frontmatter and body and
// validates the frontmatter strictly: a mapping, no anchors or aliases (no
// alias bombs), bounded size and depth, no duplicate keys, the
// specification's name and description rules. Every refusal is a
// *Rejection naming SKILL.md.
func parseSkillMD(data []byte) (*frontmatter, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first, rest, ok := cutLine(data)
	if !ok || strings.TrimRight(string(first), " \t\r") != "---" {
		return nil, rejectf("SKILL.md does not start with a frontmatter block (a \"---\" line, then name and description in YAML, then \"---\"); add one and import again")
	}
	var head []byte
	line := 1
	for {
		var l []byte
		l, rest, ok = cutLine(rest)
		line++
		if !ok && len(l) == 0 {
			return nil, rejectf("SKILL.md's frontmatter is never closed with a \"---\" line; close it and import again")
		}
		if t := strings.TrimRight(string(l), " \t\r"); t == "---" || t == "..." {
			break
		}
		if bytes.IndexByte(bytes.TrimSuffix(l, []byte("\r")), '\r') >= 0 {
			// YAML reads a lone carriage return as a line break; vouch's
			// line view (findings, the removal of execution keys) would
			// not, and the two would disagree about what a line holds.
			return nil, rejectf("SKILL.md's frontmatter has a carriage return without a line feed on line %d; save the file with \\n or \\r\\n line ends and import again", line)
		}
		if len(head)+len(l) > MaxFrontmatterBytes {
			return nil, rejectf("SKILL.md's frontmatter is longer than %d KiB; keep name, description and the few other fields short and import again", MaxFrontmatterBytes>>10)
		}
		head = append(append(head, l...), '\n')
	}
	fm := &frontmatter{Body: string(rest), BodyLine: line + 1}
	if err := fm.decode(head); err != nil {
		return nil, err
	}
	return fm, nil
}

// cutLine returns data's first line (without "\n") and the rest; ok is
// false when data holds no newline.
func cutLine(data []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return data, nil, false
	}
	return data[:i], data[i+1:], true
}

func (fm *frontmatter) decode(head []byte) (err error) {
	defer func() { // the YAML parser must never take the import down
		if r := recover(); r != nil {
			err = rejectf("SKILL.md's frontmatter cannot be parsed as YAML; fix it and import again")
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(head, &doc); err != nil {
		return rejectf("SKILL.md's frontmatter is not valid YAML (%s); fix it and import again", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if err := checkNode(&doc, 0); err != nil {
		return err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return rejectf("SKILL.md's frontmatter is not a YAML mapping of fields (name: …, description: …); fix it and import again")
	}
	m := doc.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return rejectf("SKILL.md's frontmatter has a key that is not plain text on line %d; fix it and import again", k.Line+1)
		}
		key := k.Value
		if seen[key] {
			return rejectf("SKILL.md's frontmatter gives %q twice; keep one and import again", key)
		}
		seen[key] = true
		if err := fm.field(key, k.Line+1, v); err != nil {
			return err
		}
	}
	fm.escapedHidden(&doc, head)
	return fm.check()
}

// checkNode refuses anchors, aliases, merge keys and deep nesting.
func checkNode(n *yaml.Node, depth int) error {
	if depth > maxYAMLDepth {
		return rejectf("SKILL.md's frontmatter nests deeper than %d levels; flatten it and import again", maxYAMLDepth)
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" || n.Tag == "!!merge" {
		return rejectf("SKILL.md's frontmatter uses YAML anchors or aliases (line %d), which vouch refuses; write the values out and import again", n.Line+1)
	}
	for _, c := range n.Content {
		if err := checkNode(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (fm *frontmatter) field(key string, line int, v *yaml.Node) error {
	switch key {
	case "name", "description", "license", "compatibility":
		s, err := scalar(key, v)
		if err != nil {
			return err
		}
		switch key {
		case "name":
			fm.Name = s
		case "description":
			fm.Description, fm.descLine = s, line
		case "license":
			fm.License = s
		default:
			fm.Compatibility = s
		}
	case "metadata":
		return fm.metadata(v)
	case "allowed-tools":
		return fm.allowedTools(v)
	case "version":
		if s, err := scalar(key, v); err == nil && fm.Version == "" {
			fm.Version = s
		}
	default:
		if isExecKey(key) { // stripExecKeys removed block-style ones before the scan
			fm.Findings = append(fm.Findings, Finding{File: "SKILL.md", Line: line, Rule: RuleExecRequest, Action: ActionStripped,
				Detail: fmt.Sprintf("frontmatter key %q asks for command execution, hooks or an MCP server; vouch never runs anything from a package, so it was removed", clip(key, 64))})
			return nil
		}
		fm.Warnings = append(fm.Warnings, fmt.Sprintf("SKILL.md frontmatter key %q (line %d) is not part of the Agent Skills specification; ignored", clip(key, 64), line))
	}
	return nil
}

func scalar(key string, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", rejectf("SKILL.md's %q must be text, not a list or mapping (line %d); fix it and import again", key, v.Line+1)
	}
	return v.Value, nil
}

func (fm *frontmatter) metadata(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "") {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return rejectf("SKILL.md's metadata must be a mapping of names to text (line %d); fix it and import again", v.Line+1)
	}
	if len(v.Content)/2 > maxMetadataKeys {
		return rejectf("SKILL.md's metadata has %d entries, more than the %d allowed; trim it and import again", len(v.Content)/2, maxMetadataKeys)
	}
	fm.Metadata = make(map[string]string, len(v.Content)/2)
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode {
			fm.Warnings = append(fm.Warnings, fmt.Sprintf("SKILL.md metadata entry on line %d is not a name and a text value; ignored", k.Line+1))
			continue
		}
		if _, dup := fm.Metadata[k.Value]; dup {
			return rejectf("SKILL.md's metadata gives %q twice; keep one and import again", k.Value)
		}
		if utf8.RuneCountInString(val.Value) > maxFieldLen || len(k.Value) > MaxNameLen*2 {
			return rejectf("SKILL.md's metadata entry %q is longer than %d characters; shorten it and import again", clip(k.Value, 64), maxFieldLen)
		}
		fm.Metadata[k.Value] = val.Value
	}
	if ver, ok := fm.Metadata["version"]; ok {
		fm.Version = ver
	}
	return nil
}

// allowedTools accepts the specification's space-separated string (and the
// comma-separated form some tools write, and a YAML list); spaces inside
// parentheses, as in "Bash(git add:*)", stay within one entry.
func (fm *frontmatter) allowedTools(v *yaml.Node) error {
	var raw []string
	switch v.Kind {
	case yaml.ScalarNode:
		raw = splitTools(v.Value)
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return rejectf("SKILL.md's allowed-tools must list tool names as text (line %d); fix it and import again", c.Line+1)
			}
			raw = append(raw, splitTools(c.Value)...)
		}
	default:
		return rejectf("SKILL.md's allowed-tools must be a list of tool names (line %d); fix it and import again", v.Line+1)
	}
	if len(raw) > maxAllowedTools {
		return rejectf("SKILL.md's allowed-tools lists %d tools, more than the %d allowed; trim it and import again", len(raw), maxAllowedTools)
	}
	for _, t := range raw {
		if len(t) > maxFieldLen {
			return rejectf("SKILL.md's allowed-tools has an entry longer than %d characters; fix it and import again", maxFieldLen)
		}
	}
	fm.AllowedTools = raw
	return nil
}

func splitTools(s string) []string {
	var out []string
	depth, start := 0, -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || r == ' ' || r == '\t' || r == '\n'):
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return out
}

func (fm *frontmatter) check() error {
	switch {
	case fm.Name == "":
		return rejectf("SKILL.md's frontmatter has no name; add one (lower-case letters, digits and hyphens) and import again")
	case len(fm.Name) > MaxNameLen || !skillNameRE.MatchString(fm.Name):
		return rejectf("SKILL.md's name %q must be 1 to %d lower-case letters, digits and single hyphens, not starting or ending with one; rename it and import again", clip(fm.Name, 80), MaxNameLen)
	case strings.TrimSpace(fm.Description) == "":
		return rejectf("SKILL.md's frontmatter has no description; add one saying what the skill does and when to use it, and import again")
	}
	switch n := utf8.RuneCountInString(fm.Description); {
	case n > maxLongDescription:
		return rejectf("SKILL.md's description is %d characters, far more than the %d the Agent Skills specification allows; shorten it and import again", n, MaxDescriptionLen)
	case n > MaxDescriptionLen:
		fm.Findings = append(fm.Findings, Finding{File: "SKILL.md", Line: fm.descLine, Rule: RuleSpecLimit, Severity: SeverityLow, Action: ActionShown,
			Detail: fmt.Sprintf("the description is %d characters, more than the %d the Agent Skills specification allows; it is kept whole, and the model's listing carries its first %d", n, MaxDescriptionLen, MaxDescriptionLen)})
	}
	if n := utf8.RuneCountInString(fm.Compatibility); n > MaxCompatibilityLen {
		return rejectf("SKILL.md's compatibility is %d characters, more than the %d the Agent Skills specification allows; shorten it and import again", n, MaxCompatibilityLen)
	}
	if n := utf8.RuneCountInString(fm.License); n > maxFieldLen {
		return rejectf("SKILL.md's license is %d characters, more than %d; name the license or its file and import again", n, maxFieldLen)
	}
	if utf8.RuneCountInString(fm.Version) > MaxNameLen {
		return rejectf("SKILL.md's version is longer than %d characters; shorten it and import again", MaxNameLen)
	}
	return nil
}

// clip shortens untrusted text quoted in a message.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
