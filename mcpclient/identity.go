package mcpclient

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// identityPrefix starts every MCP tool identity (SPEC C1).
const identityPrefix = "mcp:"

// Identity returns the stable internal identity of a server's tool,
// "mcp:<serverUUID>:<toolName>" (SPEC C1). It is what persistence, selection,
// registry lookup and approval policy key on; wire names are derived from it.
func Identity(serverID, toolName string) string {
	return identityPrefix + serverID + ":" + toolName
}

// ParseIdentity splits an identity made by Identity. Tool names may contain
// colons; server IDs (UUIDs) do not.
func ParseIdentity(identity string) (serverID, toolName string, ok bool) {
	rest, ok := strings.CutPrefix(identity, identityPrefix)
	if !ok {
		return "", "", false
	}
	serverID, toolName, ok = strings.Cut(rest, ":")
	if !ok || serverID == "" || toolName == "" {
		return "", "", false
	}
	return serverID, toolName, true
}

// Wire-name shape (SPEC C2).
const (
	wirePrefix  = "mcp_"
	maxWireLen  = 63
	wireHashLen = 12 // hex digits of SHA-256: 48 bits
)

// WireNames freezes a wire name for each identity of an execution (SPEC C2)
// and returns identity → wire name. Every wire name starts with "mcp_" and is
// at most 63 characters of ASCII letters, digits, '_' and '-'. The tool name
// is used as is when it is already legal, fits, and no other identity in the
// set would map to the same name (compared case-insensitively); otherwise it
// is sanitized, truncated, and a fixed-width hash of the identity is appended.
//
// The result depends only on the set of identities (order and duplicates do
// not matter), so the same set gives the same names in every run. Two servers
// exposing the same tool name get distinct names (SPEC C3).
func WireNames(identities []string) map[string]string {
	set := slices.Clone(identities)
	slices.Sort(set)
	set = slices.Compact(set)

	base := make(map[string]string, len(set))     // identity → plain candidate
	plainOK := make(map[string]bool, len(set))    // identity → usable without hash
	owners := make(map[string][]string, len(set)) // folded candidate → identities
	for _, id := range set {
		name := toolPart(id)
		clean := sanitizeWire(name)
		cand := wirePrefix + clean
		base[id] = clean
		plainOK[id] = clean == name && len(cand) <= maxWireLen
		owners[strings.ToLower(cand)] = append(owners[strings.ToLower(cand)], id)
	}
	out := make(map[string]string, len(set))
	taken := make(map[string]bool, len(set)) // folded names assigned so far
	// Plain names first: they are unambiguous by construction.
	for _, id := range set {
		cand := wirePrefix + base[id]
		if plainOK[id] && len(owners[strings.ToLower(cand)]) == 1 {
			out[id] = cand
			taken[strings.ToLower(cand)] = true
		}
	}
	// Hashed names; a (practically impossible) clash re-hashes with a salt,
	// deterministically, since identities are visited in sorted order.
	for _, id := range set {
		if _, done := out[id]; done {
			continue
		}
		for salt := 0; ; salt++ {
			cand := hashedWire(id, base[id], salt)
			if !taken[strings.ToLower(cand)] {
				out[id] = cand
				taken[strings.ToLower(cand)] = true
				break
			}
		}
	}
	return out
}

// toolPart is the tool name of an MCP identity, or the whole identity after
// its scheme for any other kind (e.g. "builtin:read_file").
func toolPart(identity string) string {
	if _, tool, ok := ParseIdentity(identity); ok {
		return tool
	}
	if _, rest, ok := strings.Cut(identity, ":"); ok {
		return rest
	}
	return identity
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

func hashedWire(identity, clean string, salt int) string {
	in := identity
	if salt > 0 {
		in = fmt.Sprintf("%s\x00%d", identity, salt)
	}
	sum := sha256.Sum256([]byte(in))
	h := hex.EncodeToString(sum[:])[:wireHashLen]
	room := maxWireLen - len(wirePrefix) - 1 - wireHashLen
	if len(clean) > room {
		clean = clean[:room]
	}
	return wirePrefix + clean + "_" + h
}

// WireMap is an execution's frozen, two-way map between identities and wire
// names. The zero value is empty. It is immutable and safe for concurrent
// use.
type WireMap struct {
	toWire     map[string]string
	toIdentity map[string]string
}

// NewWireMap freezes the wire names of identities (see WireNames).
func NewWireMap(identities []string) WireMap {
	toWire := WireNames(identities)
	toIdentity := make(map[string]string, len(toWire))
	for id, w := range toWire {
		toIdentity[w] = id
	}
	return WireMap{toWire: toWire, toIdentity: toIdentity}
}

// Wire returns the wire name frozen for identity.
func (m WireMap) Wire(identity string) (string, bool) {
	w, ok := m.toWire[identity]
	return w, ok
}

// Identity maps a wire name the model returned back to its identity. An
// unknown wire name is an error wrapping ErrUnknownWireName, to be reported
// to the model; it is never matched approximately (SPEC C2).
func (m WireMap) Identity(wire string) (string, error) {
	if id, ok := m.toIdentity[wire]; ok {
		return id, nil
	}
	return "", fmt.Errorf("%w: %q is not one of the tools offered in this run; call one of the listed tools", ErrUnknownWireName, cleanText(wire, 80))
}

// Len returns the number of identities in the map.
func (m WireMap) Len() int { return len(m.toWire) }
