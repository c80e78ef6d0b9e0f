package lock

import (
	"fmt"
	"strings"

	"vouch/safetext"
)

// validate checks what the TOML decoder cannot: required fields, shapes
// and duplicates, each refusal naming the line of the block.
func validate(data []byte, l Lock) error {
	at := func(kind string, i int, format string, args ...any) error {
		return &ParseError{Line: blockLine(data, kind, i), Msg: fmt.Sprintf(format, args...)}
	}
	seen := map[string]bool{}
	once := func(key string) bool {
		if seen[key] {
			return false
		}
		seen[key] = true
		return true
	}
	for i, s := range l.Servers {
		switch {
		case strings.TrimSpace(s.Name) == "":
			return at("server", i, "a server needs a name")
		case s.URL == "":
			return at("server", i, "server %s needs a url", q(s.Name))
		case !once("server\x00" + strings.ToLower(s.Name)):
			return at("server", i, "server %s is named twice", q(s.Name))
		}
	}
	for i, r := range l.Rules {
		if err := validRule(r); err != "" {
			return at("rule", i, "tool %s: %s", q(r.Subject()), err)
		}
		if !once("rule\x00" + r.Server + "\x00" + r.Tool) {
			return at("rule", i, "tool %s has two rules", q(r.Subject()))
		}
	}
	for i, s := range l.Skills {
		switch {
		case s.Name == "":
			return at("skill", i, "a skill needs a name")
		case s.Version < 1:
			return at("skill", i, "skill %s needs a version from 1", q(s.Name))
		case !isHex64(s.SHA256):
			return at("skill", i, "skill %s: sha256 must be 64 hex digits", q(s.Name))
		case !once("skill\x00" + s.Name):
			return at("skill", i, "skill %s is pinned twice", q(s.Name))
		}
		for _, f := range s.Files {
			if f.Path == "" || !isHex64(f.SHA256) {
				return at("skill", i, "skill %s: every file needs a path and a sha256 of 64 hex digits", q(s.Name))
			}
		}
	}
	for i, s := range l.ServerSkills {
		switch {
		case s.Server == "" || s.URI == "" || s.Set == "":
			return at("server_skill", i, "a server skill needs server, uri and set")
		case !once("sk\x00" + s.Server + "\x00" + s.URI):
			return at("server_skill", i, "the skill %s of server %s is pinned twice", q(s.URI), q(s.Server))
		}
	}
	for i, p := range l.Profiles {
		switch {
		case p.Name == "" || p.Digest == "":
			return at("profile", i, "a profile needs a name and a digest")
		case !once("profile\x00" + p.Name):
			return at("profile", i, "profile %s is named twice", q(p.Name))
		}
	}
	return nil
}

// validRule says what is wrong with r, "" when nothing is.
func validRule(r Rule) string {
	switch {
	case r.Tool == "":
		return "a rule needs a tool"
	case r.Server == "" && !strings.HasPrefix(r.Tool, "builtin:"):
		return "a rule names its server, or a built-in tool as builtin:NAME"
	case classRank(r.Class) < 0:
		return fmt.Sprintf("the class %s is not ask, allow or block", q(r.Class))
	case effectRank(r.Effect) < 0:
		return fmt.Sprintf("the effect %s is not read-only, idempotent or mutating", q(r.Effect))
	case r.Pin != "" && !validDigest(r.Pin):
		return "the pin must be sha256: and 64 hex digits"
	case len(r.Constraints) > 0 && r.Class != "allow":
		return "constraints narrow an allow rule only"
	}
	for _, c := range r.Constraints {
		if c.Arg == "" || (c.Kind != "under" && c.Kind != "one-of") || len(c.Values) == 0 {
			return "a constraint needs an arg, a kind (under or one-of) and values"
		}
		for _, v := range c.Values {
			if v == "" {
				return "a constraint's values cannot be empty"
			}
		}
	}
	return ""
}

func q(s string) string { return `"` + safetext.Line(s, 60) + `"` }

// validDigest reports whether d is "sha256:" and 64 lower-case hex digits.
func validDigest(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	return ok && isHex64(h)
}

func isHex64(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
