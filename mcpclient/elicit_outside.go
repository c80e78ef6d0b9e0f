package mcpclient

import "vouch/tool"

// A request for input that arrives when no call of its server that may
// ask is in flight is declined at once (elicit.go); so that the person
// reads why, the sentence goes to Options.OnDeclined and to the Asker of
// every call in flight (a run's transcript), as a question of no call.

// watchAsker registers the Asker of ctx's call for the call's duration.
func (m *Manager) watchAsker(correlation string, a tool.Asker) (stop func()) {
	if a == nil {
		return func() {}
	}
	m.askMu.Lock()
	if m.askers == nil {
		m.askers = map[string]tool.Asker{}
	}
	m.askers[correlation] = a
	m.askMu.Unlock()
	return func() {
		m.askMu.Lock()
		delete(m.askers, correlation)
		m.askMu.Unlock()
	}
}

// declinedOutside tells who listens that a server's request outside any
// call was declined.
func (m *Manager) declinedOutside(cfg ServerConfig, host, why string) {
	if m.opts.OnDeclined != nil {
		m.opts.OnDeclined(cfg.ID, why)
	}
	m.askMu.Lock()
	askers := make([]tool.Asker, 0, len(m.askers))
	for _, a := range m.askers {
		askers = append(askers, a)
	}
	m.askMu.Unlock()
	q := tool.Question{Server: cleanText(cfg.Name, 64), Host: host}
	for _, a := range askers {
		a.Declined(q, why+" ("+q.Server+")")
	}
}

// hostOf is the host of an endpoint URL, "" when it does not parse.
func hostOf(endpoint string) string {
	u, err := ParseEndpoint(endpoint)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
