package mcpclient

import (
	"fmt"
	"slices"
	"strings"
	"vouch/tool"
)

// identityPrefix starts every MCP tool identity (SPEC C1).
const identityPrefix = tool.MCPPrefix

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

// WireNames freezes a wire name for each identity of an execution (SPEC C2)
// and returns identity → wire name. It is tool.WireNames — the one
// implementation — seen from this side: duplicates in identities are
// ignored, and every MCP identity gets a name starting with "mcp_".
func WireNames(identities []string) map[string]string {
	set := slices.Clone(identities)
	slices.Sort(set)
	set = slices.Compact(set)
	set = slices.DeleteFunc(set, func(id string) bool { return id == "" })
	byWire, err := tool.WireNames(set)
	if err != nil { // cannot happen: the set has no duplicates or empties
		return map[string]string{}
	}
	out := make(map[string]string, len(byWire))
	for w, id := range byWire {
		out[id] = w
	}
	return out
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
