package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Wire-name shape (SPEC C2).
const (
	// maxWireName is the longest wire name offered to a model.
	maxWireName = 63
	// wireHashLen is the fixed width, in hex digits of SHA-256 (48 bits), of
	// the identity hash appended to a wire name that was sanitized,
	// truncated or would collide.
	wireHashLen = 12
	// mcpWirePrefix starts the wire name of every MCP tool.
	mcpWirePrefix = "mcp_"
)

// WireNames freezes the wire name of each identity of an execution (SPEC C1,
// C2) and returns the map from wire name to identity. It is the one
// implementation of wire names: runs, `vouch tools` and the mcpclient
// package all use it.
//
// Built-ins ("builtin:fs_read") get their bare name ("fs_read"); MCP tools
// ("mcp:<server>:<tool>") get "mcp_<tool>"; anything else its sanitized
// identity. A name keeps only ASCII letters, digits, '_' and '-' and at most
// 63 characters. The readable name is used as is only when it is already
// legal, fits, and no other identity in the set would map to the same name
// compared case-insensitively (some models and templates fold case);
// otherwise "_" and a 12-hex-digit hash of the identity are appended. The
// result depends only on the set of identities, not their order, so the same
// set gives the same names in every run; two servers exposing the same tool
// name get distinct names (SPEC C3). Empty or duplicate identities are an
// error.
func WireNames(identities []string) (map[string]string, error) {
	set := slices.Clone(identities)
	slices.Sort(set)
	for i, id := range set {
		if id == "" {
			return nil, fmt.Errorf("%w: a tool has an empty identity", ErrInvalid)
		}
		if i > 0 && set[i-1] == id {
			return nil, fmt.Errorf("%w: tool %q is offered twice", ErrInvalid, id)
		}
	}
	type cand struct{ prefix, clean, plain string }
	cands := make(map[string]cand, len(set))
	// owners counts, per folded readable name, the identities that would
	// read the same, sanitized or not: "a.b" and "a_b" both hash.
	owners := make(map[string]int, len(set))
	for _, id := range set {
		prefix, name := wireParts(id)
		clean := sanitizeWire(name)
		c := cand{prefix: prefix, clean: clean, plain: prefix + clean}
		owners[strings.ToLower(c.plain)]++
		if clean == "" || clean != name || len(c.plain) > maxWireName {
			c.plain = "" // needs a hash
		}
		cands[id] = c
	}
	out := make(map[string]string, len(set))
	taken := make(map[string]bool, len(set)) // folded names assigned so far
	// Plain names first: unambiguous by construction.
	for _, id := range set {
		if c := cands[id]; c.plain != "" && owners[strings.ToLower(c.plain)] == 1 {
			out[c.plain] = id
			taken[strings.ToLower(c.plain)] = true
		}
	}
	// Hashed names; a (practically impossible) clash re-hashes with a salt,
	// deterministically, since identities are visited in sorted order.
	assigned := make(map[string]bool, len(out))
	for _, id := range out {
		assigned[id] = true
	}
	for _, id := range set {
		if assigned[id] {
			continue
		}
		c := cands[id]
		for salt := 0; ; salt++ {
			name := hashedWire(id, c.prefix, c.clean, salt)
			if !taken[strings.ToLower(name)] {
				out[name] = id
				taken[strings.ToLower(name)] = true
				break
			}
		}
	}
	return out, nil
}

// wireParts splits an identity into the wire name's prefix and the readable
// name it is built from.
func wireParts(identity string) (prefix, name string) {
	switch {
	case strings.HasPrefix(identity, BuiltinPrefix):
		return "", strings.TrimPrefix(identity, BuiltinPrefix)
	case strings.HasPrefix(identity, MCPPrefix):
		rest := strings.TrimPrefix(identity, MCPPrefix)
		if _, name, ok := strings.Cut(rest, ":"); ok {
			return mcpWirePrefix, name
		}
		return mcpWirePrefix, rest
	}
	return "", identity
}

// sanitizeWire maps every byte outside [A-Za-z0-9_-] to '_'.
func sanitizeWire(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

func hashedWire(identity, prefix, clean string, salt int) string {
	in := identity
	if salt > 0 {
		in = fmt.Sprintf("%s\x00%d", identity, salt)
	}
	sum := sha256.Sum256([]byte(in))
	h := hex.EncodeToString(sum[:])[:wireHashLen]
	if clean == "" {
		clean = "tool"
	}
	room := maxWireName - len(prefix) - 1 - wireHashLen
	if len(clean) > room {
		clean = clean[:room]
	}
	return prefix + clean + "_" + h
}
