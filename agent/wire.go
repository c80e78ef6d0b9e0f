package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// maxWireName is the longest wire name offered to a model (SPEC C2).
const maxWireName = 63

// wireHashLen is the fixed width of the identity hash appended to a wire
// name that was sanitized, truncated or would collide.
const wireHashLen = 8

// WireNames freezes the wire name of each identity (SPEC C1, C2) and returns
// the map from wire name to identity. Built-ins ("builtin:fs_read") get their
// bare name ("fs_read"); MCP tools ("mcp:<server>:<tool>") get "mcp_<tool>";
// anything else gets its sanitized identity. A name keeps only ASCII letters,
// digits, '_' and '-' and at most 63 characters; whenever sanitizing,
// truncation or a collision could blur two identities, "_" and an 8-hex-digit
// hash of the identity are appended. Duplicate or empty identities are an
// error.
func WireNames(identities []string) (map[string]string, error) {
	type cand struct {
		identity, base string
		changed        bool
	}
	cands := make([]cand, 0, len(identities))
	seen := make(map[string]bool, len(identities))
	counts := make(map[string]int, len(identities))
	for _, id := range identities {
		if id == "" {
			return nil, fmt.Errorf("%w: a tool has an empty identity", ErrBadTool)
		}
		if seen[id] {
			return nil, fmt.Errorf("%w: tool %q is offered twice", ErrBadTool, id)
		}
		seen[id] = true
		base, changed := wireBase(id)
		cands = append(cands, cand{id, base, changed})
		counts[base]++
	}
	out := make(map[string]string, len(cands))
	for _, c := range cands {
		name := c.base
		if c.changed || counts[c.base] > 1 || len(name) > maxWireName {
			name = withHash(c.base, c.identity)
		}
		if prev, dup := out[name]; dup {
			return nil, fmt.Errorf("%w: tools %q and %q map to the same wire name %q", ErrBadTool, prev, c.identity, name)
		}
		out[name] = c.identity
	}
	return out, nil
}

// wireBase is the readable part of a wire name and whether sanitizing had
// to change the tool's own name.
func wireBase(identity string) (string, bool) {
	prefix, name := "", identity
	switch {
	case strings.HasPrefix(identity, "builtin:"):
		name = strings.TrimPrefix(identity, "builtin:")
	case strings.HasPrefix(identity, "mcp:"):
		prefix = "mcp_"
		rest := strings.TrimPrefix(identity, "mcp:")
		if _, tool, ok := strings.Cut(rest, ":"); ok {
			name = tool
		} else {
			name = rest
		}
	}
	clean := sanitizeWire(name)
	if clean == "" {
		clean = "tool"
	}
	return prefix + clean, clean != name
}

func sanitizeWire(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

func withHash(base, identity string) string {
	sum := sha256.Sum256([]byte(identity))
	suffix := "_" + hex.EncodeToString(sum[:])[:wireHashLen]
	if len(base)+len(suffix) > maxWireName {
		base = base[:maxWireName-len(suffix)]
	}
	return base + suffix
}
