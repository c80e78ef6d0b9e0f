package app

import (
	"cmp"
	"fmt"
	"strings"
	"sync"

	"vouch/mcpclient"
	"vouch/safetext"
	"vouch/store"
)

// Tool labels (issue 18 item 9). A person and the model read a tool as its
// server's label and its name, "demo tools › lookup"; the identity
// mcp:<serverUUID>:lookup (SPEC C1) stays what is stored, decided on and
// printed by --json. A label is the name the person gave the server —
// untrusted text like any a server can influence, so it is neutralised —
// and it must never pass for another origin: a label that folds to
// another server's (names are unique only case-insensitively, and a name
// of mixed scripts may imitate one) or to vouch's own ("built-in") carries
// its endpoint's host, "demo (127.0.0.1:9000)", and the server ID's start
// when even the host is the same.

// BuiltinLabel is the label of vouch's own tools.
const BuiltinLabel = "built-in"

// LabelSep separates a server's label from a tool's name.
const LabelSep = " › "

// unknownLabel labels a tool of no configured server.
const unknownLabel = "unknown server"

// reservedLabel reports whether a folded label names vouch itself; a
// server's label that does is disambiguated like a duplicate.
func reservedLabel(folded string) bool {
	switch folded {
	case BuiltinLabel, "builtin", "vouch", "vouch (built-in)", unknownLabel:
		return true
	}
	return false
}

// ToolLabels maps tool identities to what people and models read. The zero
// value knows no server. It is immutable and safe for concurrent use.
type ToolLabels struct {
	servers map[string]string // server ID → its disambiguated label
}

// NewToolLabels computes the labels of servers, each neutralised and
// disambiguated against the others and against vouch's own label.
func NewToolLabels(servers []mcpclient.ServerConfig) ToolLabels {
	base := make([]string, len(servers))
	seen := make(map[string]int, len(servers))
	for i, s := range servers {
		base[i] = safetext.Line(s.Name, 64)
		if base[i] == "" {
			base[i] = "unnamed server"
		}
		seen[foldLabel(base[i])]++
	}
	labels := make([]string, len(servers))
	for i, s := range servers {
		k := foldLabel(base[i])
		labels[i] = base[i]
		if seen[k] > 1 || reservedLabel(k) || safetext.MixedScripts(base[i]) != "" {
			labels[i] = base[i] + " (" + cmp.Or(safetext.Line(hostOf(s.URL), 80), "no host") + ")"
		}
	}
	// Two servers of one label on one host: the ID's start tells them apart.
	again := make(map[string]int, len(labels))
	for _, l := range labels {
		again[foldLabel(l)]++
	}
	out := ToolLabels{servers: make(map[string]string, len(servers))}
	for i, s := range servers {
		l := labels[i]
		if again[foldLabel(l)] > 1 {
			id := safetext.Line(s.ID, 0)
			l = strings.TrimSuffix(l, ")") + ", " + id[:min(len(id), 8)] + ")"
		}
		out.servers[s.ID] = l
	}
	return out
}

func foldLabel(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Server labels the server of identity: the server's label for an MCP
// tool, "built-in" for vouch's own, "unknown server" otherwise.
func (l ToolLabels) Server(identity string) string {
	if strings.HasPrefix(identity, "builtin:") {
		return BuiltinLabel
	}
	if id, _, ok := mcpclient.ParseIdentity(identity); ok {
		if label, ok := l.servers[id]; ok {
			return label
		}
	}
	return unknownLabel
}

// Tool is how a person reads identity: "demo tools › lookup",
// "built-in › fs_read"; neutralised. Text that is no identity is returned
// neutralised as it is.
func (l ToolLabels) Tool(identity string) string { return ToolName(l.Server, identity) }

// ToolName is how a person reads identity with server naming its server:
// "label › name", neutralised; text that is no identity is returned
// neutralised as it is.
func ToolName(server func(identity string) string, identity string) string {
	if name, ok := strings.CutPrefix(identity, "builtin:"); ok {
		return BuiltinLabel + LabelSep + safetext.Line(name, 0)
	}
	if _, name, ok := mcpclient.ParseIdentity(identity); ok {
		return safetext.Line(server(identity), 0) + LabelSep + safetext.Line(name, 0)
	}
	return safetext.Line(identity, 0)
}

// ToolName is how the chat's person reads a tool: "demo tools › lookup"
// (issue 18 item 9). Unlike the chat's other methods it answers from
// memory — the labels the MCP service keeps — and never blocks on I/O, so
// a front end may call it while drawing. Without a labeller (ChatConfig
// ToolLabel) an MCP tool's server reads "unknown server".
func (b *Chat) ToolName(identity string) string {
	label := b.cfg.ToolLabel
	if label == nil {
		label = func(string) string { return unknownLabel }
	}
	return ToolName(label, identity)
}

// labelCache keeps the ToolLabels of the configured servers until a
// server's configuration changes; MCP drops it on every such change.
type labelCache struct {
	mu     sync.Mutex
	labels *ToolLabels
}

func (c *labelCache) get(build func() ToolLabels) ToolLabels {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.labels == nil {
		l := build()
		c.labels = &l
	}
	return *c.labels
}

func (c *labelCache) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.labels = nil
}

// ToolLabels returns the labels of the configured servers. It reads the
// manager's memory, never the network, and is cheap after the first call
// following a change.
func (svc *MCP) ToolLabels() ToolLabels {
	return svc.labels.get(func() ToolLabels {
		states := svc.mgr.Servers()
		cfgs := make([]mcpclient.ServerConfig, len(states))
		for i, st := range states {
			cfgs[i] = st.Config
		}
		return NewToolLabels(cfgs)
	})
}

// toolLabelsOf returns the labels of the servers configured in db, for a
// command that opens the database alone ('vouch policy list').
func toolLabelsOf(db *store.DB) (ToolLabels, error) {
	servers, err := db.MCPServers()
	if err != nil {
		return ToolLabels{}, fmt.Errorf("read the MCP servers to name their tools: %w", err)
	}
	cfgs := make([]mcpclient.ServerConfig, len(servers))
	for i, s := range servers {
		cfgs[i] = toConfig(s)
	}
	return NewToolLabels(cfgs), nil
}
