package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"vouch/tool"
)

// The meta-tools through which a run reaches its deferred tools (SPEC F2).
// They are vouch's own: they read only the run's frozen catalog, so they
// run without asking; tool_invoke sends the call it carries through the
// same policy gate, approval and audit as an inline call.
const (
	ToolSearchIdentity  = "builtin:tool_search"
	ToolInspectIdentity = "builtin:tool_inspect"
	ToolInvokeIdentity  = "builtin:tool_invoke"
)

// metaIdentities are the meta-tools' identities, in the order they are
// offered.
var metaIdentities = []string{ToolSearchIdentity, ToolInspectIdentity, ToolInvokeIdentity}

// Bounds of tool_search results.
const (
	defaultSearchLimit = 5
	maxSearchLimit     = 20
)

type metaDef struct {
	wire string
	def  tool.Def
}

// metaDefs are the meta-tools as the model sees them; their wire names
// are their bare names.
func metaDefs() []metaDef {
	return []metaDef{
		{"tool_search", tool.Def{Identity: ToolSearchIdentity,
			Description: "Find tools not listed in full; returns up to limit matches: name, server, one line.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"words for what the tool does, or its name"},` +
				`"limit":{"type":"integer","minimum":1,"maximum":20}},"required":["query"]}`)}},
		{"tool_inspect", tool.Def{Identity: ToolInspectIdentity,
			Description: "Show the description and parameters of one tool found with tool_search.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)}},
		{"tool_invoke", tool.Def{Identity: ToolInvokeIdentity,
			Description: "Call a tool found with tool_search, with arguments matching its parameters (see tool_inspect).",
			Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"arguments":{"type":"object"}},` +
				`"required":["name","arguments"]}`)}},
	}
}

// listingHeader opens the system prompt's listing of deferred tools.
const listingHeader = "More tools, not listed in full: find one with tool_search, read its parameters with tool_inspect, call it with tool_invoke."

// listingBytesPerToken is how many bytes of names the listing takes per
// token of its cap (a rough bound; the listing is counted afterwards).
const listingBytesPerToken = 3

// buildListing writes the listing of the deferred tools: per server its
// label and tool count, then names, round-robin across servers, while the
// names fit capTokens (estimated).
func buildListing(tools []PlannedTool, deferred []bool, capTokens int) string {
	type group struct {
		label string
		names []string
	}
	var groups []*group
	byLabel := map[string]*group{}
	for i, t := range tools {
		if !deferred[i] {
			continue
		}
		g := byLabel[t.Label]
		if g == nil {
			g = &group{label: t.Label}
			byLabel[t.Label] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, t.Wire)
	}
	if len(groups) == 0 {
		return ""
	}
	shown := make([]int, len(groups))
	room := capTokens * listingBytesPerToken
	for more := true; more; {
		more = false
		for gi, g := range groups {
			if shown[gi] < len(g.names) && len(g.names[shown[gi]])+1 <= room {
				room -= len(g.names[shown[gi]]) + 1
				shown[gi]++
				more = true
			}
		}
	}
	var b strings.Builder
	b.WriteString(listingHeader)
	for gi, g := range groups {
		fmt.Fprintf(&b, "\n- %s (%d): %s", g.label, len(g.names), strings.Join(g.names[:shown[gi]], " "))
		if rest := len(g.names) - shown[gi]; rest > 0 {
			fmt.Fprintf(&b, " …+%d", rest)
		}
	}
	return b.String()
}

// deferredCatalog is what the meta-tools read: the run's deferred tools,
// frozen at its start. Their search index is built when tool_search is
// first called: most runs never search, and building it for 200 tools
// was a quarter of the CPU from Enter to request (issue 29 item 2).
type deferredCatalog struct {
	tools  []PlannedTool
	byWire map[string]int
	inline map[string]bool // wire names offered in full
	once   sync.Once
	ix     *SearchIndex
}

// index is the search index of the deferred tools, built on first use.
func (c *deferredCatalog) index() *SearchIndex {
	c.once.Do(func() {
		entries := make([]SearchEntry, len(c.tools))
		for i, t := range c.tools {
			entries[i] = SearchEntry{Name: t.Wire, Tool: tool.Name(t.Identity), Label: t.Label, Description: t.full.Description,
				Params: paramNames(t.full.Parameters)}
		}
		c.ix = NewSearchIndex(entries)
	})
	return c.ix
}

func newDeferredCatalog(p Plan) *deferredCatalog {
	c := &deferredCatalog{tools: p.Deferred, byWire: make(map[string]int, len(p.Deferred)), inline: make(map[string]bool, len(p.Inline))}
	for i, t := range p.Deferred {
		c.byWire[t.Wire] = i
	}
	for _, t := range p.Inline {
		c.inline[t.Wire] = true
	}
	for _, w := range p.Meta {
		c.inline[w] = true
	}
	return c
}

// search answers tool_search.
func (c *deferredCatalog) search(args json.RawMessage) tool.Result {
	var in struct {
		Query string          `json:"query"`
		Limit json.RawMessage `json:"limit"`
	}
	if err := json.Unmarshal(args, &in); err != nil || strings.TrimSpace(in.Query) == "" {
		return tool.Result{Text: `tool_search needs {"query": "words for what the tool does"}`, IsError: true}
	}
	limit := defaultSearchLimit
	if len(in.Limit) > 0 {
		// Models send numbers as strings, too; anything unreadable keeps the default.
		if n, err := strconv.Atoi(strings.Trim(string(in.Limit), `" `)); err == nil && n > 0 {
			limit = min(n, maxSearchLimit)
		}
	}
	hits := c.index().Search(in.Query, limit)
	if len(hits) == 0 {
		return tool.Result{Text: fmt.Sprintf("No tool matches %q; try other words.", in.Query)}
	}
	var b strings.Builder
	for _, h := range hits {
		t := c.tools[h.Index]
		fmt.Fprintf(&b, "%s (%s): %s\n", t.Wire, t.Label, firstLine(t.Def.Description))
	}
	b.WriteString("Use tool_inspect for a tool's parameters, tool_invoke to call it.")
	return tool.Result{Text: b.String()}
}

// inspect answers tool_inspect.
func (c *deferredCatalog) inspect(args json.RawMessage) tool.Result {
	var in struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Name == "" {
		return tool.Result{Text: `tool_inspect needs {"name": "<a name from tool_search>"}`, IsError: true}
	}
	t, res := c.lookup(in.Name, "tool_inspect")
	if t == nil {
		return res
	}
	return tool.Result{Text: fmt.Sprintf("%s (%s)\n%s\nparameters: %s\nCall it with tool_invoke {\"name\": %q, \"arguments\": {…}}.",
		t.Wire, t.Label, t.Def.Description, t.Def.Parameters, t.Wire)}
}

// lookup finds a deferred tool by its exact wire name, or returns the
// refusal the model reads: never a guess (SPEC C2).
func (c *deferredCatalog) lookup(name, via string) (*PlannedTool, tool.Result) {
	if i, ok := c.byWire[name]; ok {
		return &c.tools[i], tool.Result{}
	}
	if c.inline[name] {
		return nil, tool.Result{Text: fmt.Sprintf("%s cannot take %q: that tool is offered directly; call it by its name.", via, name), IsError: true}
	}
	if text, ok := refusal(name); ok {
		return nil, tool.Result{Text: text, IsError: true}
	}
	text := fmt.Sprintf("%s refuses %q: it is not one of this run's tools; find the exact name with tool_search.", via, name)
	for _, t := range c.tools {
		if raw := tool.Name(t.Identity); strings.EqualFold(raw, name) {
			text = fmt.Sprintf("%s refuses %q: it is not one of this run's tool names; did you mean %q? Use that exact name.", via, name, t.Wire)
			break
		}
	}
	return nil, tool.Result{Text: text, IsError: true}
}

// isMeta reports whether identity is one of the meta-tools.
func isMeta(identity string) bool {
	return identity == ToolSearchIdentity || identity == ToolInspectIdentity || identity == ToolInvokeIdentity
}

// metaCall runs a meta-tool call. Search and inspect read the frozen
// catalog and never ask; invoke maps the inner name to a deferred tool
// and sends exactly the inner arguments through the gate, the approval
// request and the audit under that tool's identity (SPEC F2, D5).
func (r *run) metaCall(call ToolCall, t *frozenTool, args json.RawMessage) (tool.Result, bool) {
	switch t.def.Identity {
	case ToolSearchIdentity:
		return r.catalog.search(args), true
	case ToolInspectIdentity:
		return r.catalog.inspect(args), true
	}
	var in struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Name == "" {
		return tool.Result{Text: `tool_invoke needs {"name": "<a name from tool_search>", "arguments": {…}}`, IsError: true}, true
	}
	target, res := r.catalog.lookup(in.Name, "tool_invoke")
	if target == nil {
		return res, true
	}
	inner, err := checkArguments(string(in.Arguments))
	if err != nil {
		return tool.Result{Text: "tool_invoke: " + err.Error(), IsError: true}, true
	}
	dt := r.deferred[target.Wire]
	innerCall := call
	innerCall.WireName, innerCall.Identity, innerCall.Arguments = dt.wire, dt.def.Identity, string(inner)
	if res, decided, ok := r.gate(innerCall, dt.def, inner); !ok {
		return tool.Result{}, false
	} else if decided {
		return res, true
	}
	return r.callHandler(innerCall, dt, inner)
}

// deferredDirect is the result of a call that names a deferred tool as if
// it were offered directly: nothing runs; the model is told how to call it.
func deferredDirect(name string) tool.Result {
	return tool.Result{Text: fmt.Sprintf("%s is not offered directly in this conversation; call it with tool_invoke {\"name\": %q, \"arguments\": {…}}.", name, name), IsError: true}
}
