package mcpclient

import "vouch/policy"

// Pinned definitions (SPEC D8). Every cached tool carries the digest of
// its definition (ToolInfo.Digest), computed when its catalog is fetched or
// loaded. A rule pins the digest the person classified; these lookups give
// the policy and session recovery the digest served now.

// Served returns the digest of the definition identity's server serves
// now, from the cached catalog (app-only tools included); "" when the tool
// is not in it. It never waits on the network and costs one map lookup and
// a scan of one server's tool names.
func (m *Manager) Served(identity string) string {
	info, ok := m.servedInfo(identity)
	if !ok {
		return ""
	}
	return info.Digest
}

// ServedPin returns the pin of the definition served now — its digest and
// canonical form, for re-classifying or showing what changed; ok is false
// when the tool is not in the cached catalog or cannot be canonicalized.
func (m *Manager) ServedPin(identity string) (pin policy.Pin, ok bool) {
	info, found := m.servedInfo(identity)
	if !found {
		return policy.Pin{}, false
	}
	p, err := info.Pin()
	return p, err == nil
}

func (m *Manager) servedInfo(identity string) (ToolInfo, bool) {
	serverID, name, ok := ParseIdentity(identity)
	if !ok {
		return ToolInfo{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.servers[serverID]
	if !ok || !s.hasCatalog {
		return ToolInfo{}, false
	}
	return s.catalog.Tool(name)
}

// servedDigestIs reports whether serverID's tool toolName serves the
// definition whose digest is want, now: what B7 reads before replaying a
// call whose effect was reviewed for that definition.
func (m *Manager) servedDigestIs(serverID, toolName, want string) bool {
	return want != "" && m.Served(Identity(serverID, toolName)) == want
}
