package policy

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"vouch/safetext"
)

// Identity prefixes (SPEC C1).
const (
	builtinPrefix = "builtin:"
	mcpPrefix     = "mcp:"
)

// Identities of the built-in read-only workspace tools. They mirror
// agent.IdentityFSList, IdentityFSRead and IdentityFSSearch (policy cannot
// import agent, which imports policy); a test in cmd/vouch checks that every
// tool agent.Workspace offers is one of them.
const (
	identityFSList   = "builtin:fs_list"
	identityFSRead   = "builtin:fs_read"
	identityFSSearch = "builtin:fs_search"
)

// isWorkspaceRead reports whether identity is a built-in tool that only
// reads inside the workspace. Every other built-in counts as one that
// writes.
func isWorkspaceRead(identity string) bool {
	switch identity {
	case identityFSList, identityFSRead, identityFSSearch:
		return true
	}
	return false
}

// CanAllow reports whether a rule may allow identity without asking:
// every tool but vouch's built-in tools that write (ValidateRule refuses
// such a rule), so an editor need not offer what saving refuses.
func CanAllow(identity string) bool { return !IsBuiltin(identity) || isWorkspaceRead(identity) }

// IsBuiltin reports whether identity names a built-in tool.
func IsBuiltin(identity string) bool { return strings.HasPrefix(identity, builtinPrefix) }

// Limits on what a rule may hold.
const (
	maxToolName = 128 // as mcpclient accepts from a server
	maxBuiltin  = 64
	maxArgName  = 128
	maxValue    = 4096
	maxValues   = 64
	maxNote     = 1000
)

// ValidateIdentity reports whether identity has the shape of a tool
// identity: mcp:<server-id>:<tool>, where the server ID is the lower-case
// UUID vouch gave the server (as `vouch tools` shows it, not its name), or
// builtin:<name>. The tool need not exist yet: a rule may precede discovery.
func ValidateIdentity(identity string) error {
	switch {
	case strings.HasPrefix(identity, builtinPrefix):
		name := identity[len(builtinPrefix):]
		if name == "" || len(name) > maxBuiltin || strings.IndexFunc(name, notNameRune) >= 0 {
			return invalid("the identity %s is not builtin:<name> with a name of letters, digits, '_', '-' or '.'", quote(identity))
		}
		return nil
	case strings.HasPrefix(identity, mcpPrefix):
		server, tool, ok := strings.Cut(identity[len(mcpPrefix):], ":")
		if !ok || tool == "" {
			return invalid("the identity %s is not mcp:<server-id>:<tool>; copy it from 'vouch tools'", quote(identity))
		}
		if !isServerID(server) {
			return invalid("the server part of %s must be the server's ID (a lower-case UUID, as 'vouch tools' shows), not its name", quote(identity))
		}
		if len(tool) > maxToolName || !utf8.ValidString(tool) || safetext.Neutralize(tool) != tool || strings.ContainsAny(tool, "\n\t") {
			return invalid("the tool name in %s is longer than %d bytes or holds control characters", quote(identity), maxToolName)
		}
		return nil
	}
	return invalid("the identity %s is neither mcp:<server-id>:<tool> nor builtin:<name>", quote(identity))
}

func notNameRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
}

// isServerID reports whether s is a canonical lower-case UUID
// (8-4-4-4-12 hex digits), the form mcpclient gives every server.
func isServerID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

func (c Class) known() bool  { return c == Ask || c == Allow || c == Block }
func (e Effect) known() bool { return e == ReadOnly || e == Idempotent || e == Mutating }

// ValidateRule reports whether a person may save r: a well-formed identity
// (see ValidateIdentity), a known class and effect, constraints only on an
// allow rule, each with an argument name, a known kind and non-empty
// values, every "under" value a clean path that does not start with "..",
// and never an allow for a built-in tool that writes (ErrWriteAllow). Its
// error is one sentence wrapping ErrInvalidRule or ErrWriteAllow.
func ValidateRule(r Rule) error {
	if err := ValidateIdentity(r.Identity); err != nil {
		return err
	}
	if !r.Class.known() {
		return invalid("the class %s is not ask, allow or block", quote(string(r.Class)))
	}
	if !r.Effect.known() {
		return invalid("the effect %s is not read-only, idempotent or mutating", quote(string(r.Effect)))
	}
	if r.Class == Allow && !CanAllow(r.Identity) {
		return &ruleError{kind: ErrWriteAllow, sentence: fmt.Sprintf(
			"anything that writes asks: %s is not one of vouch's read-only workspace tools, so it cannot be allowed automatically; classify it ask or block",
			quote(r.Identity))}
	}
	if len(r.Constraints) > 0 && r.Class != Allow {
		return invalid("constraints narrow an allow rule; an %s rule takes none", r.Class)
	}
	for _, c := range r.Constraints {
		if err := validateConstraint(c); err != nil {
			return err
		}
	}
	if len(r.Note) > maxNote {
		return invalid("the note is %d bytes; keep it under %d", len(r.Note), maxNote)
	}
	if p := r.Pin; p != nil {
		if !validDigest(p.Digest) {
			return invalid("the pinned definition's digest %s is not sha256: and 64 hex digits; classify the tool again to pin it", quote(p.Digest))
		}
		if len(p.Definition) > 0 && Digest(p.Definition) != p.Digest {
			return invalid("the pinned definition does not match its digest; classify the tool again to pin it")
		}
	}
	return nil
}

// validDigest reports whether d has the form Digest returns.
func validDigest(d string) bool {
	hexPart, ok := strings.CutPrefix(d, digestPrefix)
	if !ok || len(hexPart) != 64 {
		return false
	}
	for i := 0; i < len(hexPart); i++ {
		if c := hexPart[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func validateConstraint(c Constraint) error {
	if c.Arg == "" || len(c.Arg) > maxArgName || hasControl(c.Arg) || !utf8.ValidString(c.Arg) {
		return invalid("a constraint needs the name of a top-level argument (at most %d bytes, no control characters)", maxArgName)
	}
	if c.Kind != Under && c.Kind != OneOf {
		return invalid("the constraint kind %s is not %q or %q", quote(c.Kind), Under, OneOf)
	}
	if len(c.Values) == 0 || len(c.Values) > maxValues {
		return invalid("the %s constraint on %s needs between 1 and %d values", c.Kind, quote(c.Arg), maxValues)
	}
	for _, v := range c.Values {
		if v == "" || len(v) > maxValue || !utf8.ValidString(v) {
			return invalid("the %s constraint on %s has an empty, over-long or non-UTF-8 value", c.Kind, quote(c.Arg))
		}
		if c.Kind != Under {
			continue
		}
		if why := pathProblem(v); why != "" {
			return invalid("the folder %s %s", quote(v), why)
		}
		if clean := path.Clean(v); clean != v {
			return invalid("the folder %s is not a clean path; write it as %s", quote(v), quote(clean))
		}
		if v == ".." || strings.HasPrefix(v, "../") {
			return invalid("the folder %s starts with \"..\"; name the folder itself", quote(v))
		}
	}
	return nil
}

// quote renders untrusted or person-typed text for a sentence: Go-quoted
// (so control characters show as escapes) and capped.
func quote(s string) string {
	const max = 80
	if len(s) > max {
		i := max
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		return fmt.Sprintf("%q…", s[:i])
	}
	return fmt.Sprintf("%q", s)
}
