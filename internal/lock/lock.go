package lock

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"vouch/safetext"
)

// Format is the lockfile format this vouch writes and reads. A lockfile of
// a higher format is refused with the version that wrote it.
const Format = 1

// Lock is one lockfile: what a machine trusts.
type Lock struct {
	// Format is the lockfile format (Format when written here).
	Format int `toml:"format"`
	// WrittenBy is the vouch version that wrote the file ("vouch 1.2.0").
	WrittenBy    string        `toml:"written_by,omitempty"`
	Servers      []Server      `toml:"server,omitempty"`
	Rules        []Rule        `toml:"rule,omitempty"`
	Skills       []Skill       `toml:"skill,omitempty"`
	ServerSkills []ServerSkill `toml:"server_skill,omitempty"`
	Profiles     []Profile     `toml:"profile,omitempty"`
}

// Server is one MCP server: its name, endpoint and the name of its secret
// header. The secret itself never enters a lockfile.
type Server struct {
	Name   string `toml:"name"`
	URL    string `toml:"url"`
	Header string `toml:"header,omitempty"`
}

// Rule is one reviewed policy rule. A tool of an MCP server is named by
// Server and Tool (the tool's name on that server); a built-in by Tool
// alone ("builtin:fs_read").
type Rule struct {
	Server string `toml:"server,omitempty"`
	Tool   string `toml:"tool"`
	Class  string `toml:"class"`
	Effect string `toml:"effect"`
	// Pin is the digest of the tool definition the rule binds to (SPEC D8).
	Pin         string       `toml:"pin,omitempty"`
	Constraints []Constraint `toml:"constraint,omitempty"`
}

// Constraint narrows an allow rule (policy.Constraint).
type Constraint struct {
	Arg    string   `toml:"arg"`
	Kind   string   `toml:"kind"`
	Values []string `toml:"values"`
}

// Skill is one installed skill version with the digest of every kept file.
type Skill struct {
	Name    string `toml:"name"`
	Version int    `toml:"version"`
	SHA256  string `toml:"sha256"`
	// Signer is who signed the package ("principal (fingerprint)"), empty
	// when it was installed unsigned (SPEC N5).
	Signer   string   `toml:"signer,omitempty"`
	Accepted []string `toml:"accepted_findings,omitempty"`
	Files    []File   `toml:"file,omitempty"`
}

// File is one kept file of a skill.
type File struct {
	Path   string `toml:"path"`
	SHA256 string `toml:"sha256"`
}

// ServerSkill is one approved skill served by an MCP server (SPEC I3):
// the approval binds to the digest of its resource set.
type ServerSkill struct {
	Server string `toml:"server"`
	URI    string `toml:"uri"`
	Set    string `toml:"set"`
	Signer string `toml:"signer,omitempty"`
}

// Profile is one agent profile: the digest of its configuration and of
// the definition revision it runs.
type Profile struct {
	Name               string `toml:"name"`
	Revision           int    `toml:"revision"`
	Digest             string `toml:"digest"`
	Definition         string `toml:"definition"`
	DefinitionRevision int    `toml:"definition_revision"`
	DefinitionDigest   string `toml:"definition_digest"`
}

// Subject names the rule's tool as drift lines and sentences do:
// "mcp:notes:lookup" for a server's tool, the identity for a built-in.
func (r Rule) Subject() string {
	if r.Server == "" {
		return r.Tool
	}
	return "mcp:" + r.Server + ":" + r.Tool
}

// Sort puts every list in the canonical order: servers, skills and
// profiles by name, rules by server then tool, server skills by server
// then URI, constraints by argument, values and files as given sorted.
func (l *Lock) Sort() {
	slices.SortFunc(l.Servers, func(a, b Server) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(l.Rules, func(a, b Rule) int { return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.Tool, b.Tool)) })
	for i := range l.Rules {
		cs := l.Rules[i].Constraints
		slices.SortFunc(cs, func(a, b Constraint) int { return cmp.Or(cmp.Compare(a.Arg, b.Arg), cmp.Compare(a.Kind, b.Kind)) })
		for j := range cs {
			slices.Sort(cs[j].Values)
		}
	}
	slices.SortFunc(l.Skills, func(a, b Skill) int { return cmp.Compare(a.Name, b.Name) })
	for i := range l.Skills {
		slices.Sort(l.Skills[i].Accepted)
		slices.SortFunc(l.Skills[i].Files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	}
	slices.SortFunc(l.ServerSkills, func(a, b ServerSkill) int { return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.URI, b.URI)) })
	slices.SortFunc(l.Profiles, func(a, b Profile) int { return cmp.Compare(a.Name, b.Name) })
}

// header opens every lockfile.
const header = `# vouch lockfile: what this machine trusts (SPEC N1).
# Review changes to it in a pull request; 'vouch lock check FILE' names every
# drift and 'vouch lock apply FILE' applies it. It holds no secret.
`

// Encode returns l in canonical form: sorted, one block per item, each
// block after a comment that names it for the reviewer. Encoding the same
// Lock twice gives the same bytes.
func Encode(l Lock) ([]byte, error) {
	l.Format = Format
	l.Sort()
	var b bytes.Buffer
	b.WriteString(header)
	top, err := toml.Marshal(struct {
		Format    int    `toml:"format"`
		WrittenBy string `toml:"written_by,omitempty"`
	}{l.Format, l.WrittenBy})
	if err != nil {
		return nil, fmt.Errorf("encode the lockfile: %w", err)
	}
	b.Write(top)
	for _, s := range l.Servers {
		err = block(&b, "server "+s.Name, struct {
			X []Server `toml:"server"`
		}{[]Server{s}}, err)
	}
	for _, r := range l.Rules {
		err = block(&b, "tool "+r.Subject(), struct {
			X []Rule `toml:"rule"`
		}{[]Rule{r}}, err)
	}
	for _, s := range l.Skills {
		err = block(&b, fmt.Sprintf("skill %s version %d", s.Name, s.Version), struct {
			X []Skill `toml:"skill"`
		}{[]Skill{s}}, err)
	}
	for _, s := range l.ServerSkills {
		err = block(&b, "skill of server "+s.Server+": "+s.URI, struct {
			X []ServerSkill `toml:"server_skill"`
		}{[]ServerSkill{s}}, err)
	}
	for _, p := range l.Profiles {
		err = block(&b, "profile "+p.Name, struct {
			X []Profile `toml:"profile"`
		}{[]Profile{p}}, err)
	}
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// block writes one commented block unless an earlier one failed.
func block(b *bytes.Buffer, label string, v any, prev error) error {
	if prev != nil {
		return prev
	}
	data, err := toml.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode the lockfile's %s: %w", safetext.Line(label, 80), err)
	}
	b.WriteString("\n# " + commentText(label) + "\n")
	b.Write(data)
	return nil
}

// commentText is label as a one-line TOML comment: neutralised, without
// line breaks or other control characters.
func commentText(label string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, safetext.Line(label, 120))
}
