package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind is the shape of a definition (SPEC H2).
type Kind string

const (
	KindRole      Kind = "role"
	KindFlow      Kind = "flow"
	KindSubagents Kind = "subagents"
)

// Limits of a definition; past them Validate refuses it.
const (
	MaxNameLen         = 64
	MaxInstructionsLen = 32 << 10
	MaxSteps           = 16
	MaxHelpers         = 8
	MaxToolsPerPart    = 256
)

// Definition is one versioned agent definition: exactly one of Role, Flow
// and Subagents is set, matching Kind.
type Definition struct {
	Name        string `json:"name"`
	Kind        Kind   `json:"kind"`
	Description string `json:"description,omitempty"`

	Role      *Role      `json:"role,omitempty"`
	Flow      *Flow      `json:"flow,omitempty"`
	Subagents *Subagents `json:"subagents,omitempty"`

	// Revision counts from 1; every saved change is a new revision.
	Revision int `json:"revision,omitempty"`
	// EditedByPerson is set once the person changed the definition in vouch;
	// a package update never replaces such a definition (SPEC G5).
	EditedByPerson bool `json:"edited_by_person,omitempty"`
	// Origin says where it came from: "person", or "skill:<name>@<sha256>"
	// for one imported from a skill package.
	Origin string `json:"origin,omitempty"`
}

// Role is a single agent: instructions and the tools it prefers (tool
// identities, SPEC C1; a preference, never a grant).
type Role struct {
	Instructions   string   `json:"instructions"`
	PreferredTools []string `json:"preferred_tools,omitempty"`
}

// Flow is an ordered list of steps; each step's output is the next step's
// input.
type Flow struct {
	Steps []Step `json:"steps"`
}

// Step is one stage of a Flow. Tools narrows the profile's allowlist for
// the step (identities); empty means no tools.
type Step struct {
	Name         string   `json:"name"`
	Instructions string   `json:"instructions"`
	Tools        []string `json:"tools,omitempty"`
}

// Subagents is a lead that delegates to named helpers through a tool. Each
// part's Tools narrows the profile's allowlist; none widens it.
type Subagents struct {
	Lead    Part   `json:"lead"`
	Helpers []Part `json:"helpers"`
}

// Part is the lead or one helper of a Subagents definition. The lead's Name
// may be empty.
type Part struct {
	Name         string   `json:"name,omitempty"`
	Instructions string   `json:"instructions"`
	Tools        []string `json:"tools,omitempty"`
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// ValidName reports whether s is a legal definition, profile, step or
// helper name: lower-case letters, digits and hyphens, starting with a
// letter or digit, at most MaxNameLen bytes.
func ValidName(s string) bool { return len(s) <= MaxNameLen && nameRE.MatchString(s) }

// Parse decodes one definition strictly — unknown fields, trailing data
// and a kind that does not match the part set are errors — and validates
// it.
func Parse(data []byte) (Definition, error) {
	var d Definition
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Definition{}, fmt.Errorf("definition is not valid JSON of the documented shape: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Definition{}, errors.New("definition has data after its closing brace")
	}
	if err := d.Validate(); err != nil {
		return Definition{}, err
	}
	return d, nil
}

// Validate checks a definition: a legal name, one part matching Kind,
// non-empty instructions within limits, legal unique step and helper names,
// tool identities of the form "builtin:<name>" or "mcp:<server>:<tool>".
func (d Definition) Validate() error {
	if !ValidName(d.Name) {
		return fmt.Errorf("definition name %q must be lower-case letters, digits and hyphens, at most %d characters", d.Name, MaxNameLen)
	}
	set := 0
	for _, p := range []bool{d.Role != nil, d.Flow != nil, d.Subagents != nil} {
		if p {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("definition %q must have exactly one of role, flow and subagents", d.Name)
	}
	switch d.Kind {
	case KindRole:
		if d.Role == nil {
			return fmt.Errorf("definition %q is of kind role but has no role", d.Name)
		}
		return checkPart(d.Name, "role", d.Role.Instructions, d.Role.PreferredTools)
	case KindFlow:
		if d.Flow == nil {
			return fmt.Errorf("definition %q is of kind flow but has no flow", d.Name)
		}
		if n := len(d.Flow.Steps); n == 0 || n > MaxSteps {
			return fmt.Errorf("flow %q must have 1 to %d steps, not %d", d.Name, MaxSteps, n)
		}
		seen := map[string]bool{}
		for _, s := range d.Flow.Steps {
			if !ValidName(s.Name) || seen[s.Name] {
				return fmt.Errorf("flow %q: step name %q must be a unique lower-case name", d.Name, s.Name)
			}
			seen[s.Name] = true
			if err := checkPart(d.Name, "step "+s.Name, s.Instructions, s.Tools); err != nil {
				return err
			}
		}
		return nil
	case KindSubagents:
		if d.Subagents == nil {
			return fmt.Errorf("definition %q is of kind subagents but has no subagents", d.Name)
		}
		if err := checkPart(d.Name, "lead", d.Subagents.Lead.Instructions, d.Subagents.Lead.Tools); err != nil {
			return err
		}
		if n := len(d.Subagents.Helpers); n == 0 || n > MaxHelpers {
			return fmt.Errorf("subagents %q must have 1 to %d helpers, not %d", d.Name, MaxHelpers, n)
		}
		seen := map[string]bool{}
		for _, h := range d.Subagents.Helpers {
			if !ValidName(h.Name) || seen[h.Name] {
				return fmt.Errorf("subagents %q: helper name %q must be a unique lower-case name", d.Name, h.Name)
			}
			seen[h.Name] = true
			if err := checkPart(d.Name, "helper "+h.Name, h.Instructions, h.Tools); err != nil {
				return err
			}
		}
		return nil
	default:
		return fmt.Errorf("definition %q has kind %q; use role, flow or subagents", d.Name, d.Kind)
	}
}

func checkPart(def, part, instructions string, tools []string) error {
	if strings.TrimSpace(instructions) == "" {
		return fmt.Errorf("definition %q: %s has no instructions", def, part)
	}
	if len(instructions) > MaxInstructionsLen || !utf8.ValidString(instructions) {
		return fmt.Errorf("definition %q: %s instructions must be UTF-8 text of at most %d bytes", def, part, MaxInstructionsLen)
	}
	if len(tools) > MaxToolsPerPart {
		return fmt.Errorf("definition %q: %s lists %d tools; at most %d", def, part, len(tools), MaxToolsPerPart)
	}
	seen := map[string]bool{}
	for _, t := range tools {
		if !ValidToolIdentity(t) || seen[t] {
			return fmt.Errorf("definition %q: %s tool %q must be a unique builtin:<name> or mcp:<server>:<tool> identity", def, part, t)
		}
		seen[t] = true
	}
	return nil
}

// ValidToolIdentity reports whether s has the shape of a tool identity
// (SPEC C1): "builtin:<name>" or "mcp:<server-id>:<tool>", printable, at
// most 512 bytes.
func ValidToolIdentity(s string) bool {
	if len(s) > 512 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	if rest, ok := strings.CutPrefix(s, "builtin:"); ok {
		return rest != "" && !strings.Contains(rest, ":")
	}
	if rest, ok := strings.CutPrefix(s, "mcp:"); ok {
		server, tool, ok := strings.Cut(rest, ":")
		return ok && server != "" && tool != ""
	}
	return false
}

// Clone returns a deep copy of d: a run freezes its definition with it, so
// that a later edit of the original changes nothing in the run (SPEC H4).
func (d Definition) Clone() Definition {
	if d.Role != nil {
		r := *d.Role
		r.PreferredTools = slices.Clone(r.PreferredTools)
		d.Role = &r
	}
	if d.Flow != nil {
		f := Flow{Steps: slices.Clone(d.Flow.Steps)}
		for i := range f.Steps {
			f.Steps[i].Tools = slices.Clone(f.Steps[i].Tools)
		}
		d.Flow = &f
	}
	if d.Subagents != nil {
		s := Subagents{Lead: d.Subagents.Lead, Helpers: slices.Clone(d.Subagents.Helpers)}
		s.Lead.Tools = slices.Clone(s.Lead.Tools)
		for i := range s.Helpers {
			s.Helpers[i].Tools = slices.Clone(s.Helpers[i].Tools)
		}
		d.Subagents = &s
	}
	return d
}
