package agent

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"vouch/tool"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultToolBudget is the share of the effective context window that tool
// metadata may take when a run or profile sets none (SPEC F1).
const DefaultToolBudget = 0.25

// PlanInput is what PlanTools plans over.
type PlanInput struct {
	// Tools are the tools selected for the run, in the caller's order.
	Tools []tool.Tool
	// Window is the execution's effective context window in tokens (0:
	// DefaultContextWindow).
	Window int
	// Fraction is the share of Window tool metadata may take (0:
	// DefaultToolBudget). Values above 1 are treated as 1.
	Fraction float64
	// AsksPerson reports whether every call of a tool needs the person's
	// approval; such tools always stay inline (SPEC F3). Nil: none.
	AsksPerson func(identity string) bool
	// Count counts the tokens of a text (nil: EstimateTokens). Wrap a
	// tokenizer with CachedCount so each text is counted once.
	Count func(string) int
	// Label names a tool's server for listings and search (nil: derived
	// from the identity — "builtin", or the server part of mcp:<server>:…).
	Label func(identity string) string

	// cache, when set, keeps capped definitions across a client's runs.
	cache *planCache
	// prefetch, when set, is given every entry before any is counted
	// (planFor reads their kept counts in one read).
	prefetch func(entries []string)
}

// PlannedTool is one tool as the plan offers it.
type PlannedTool struct {
	Identity string
	// Wire is the frozen wire name (SPEC C2): the function name when
	// inline, the name tool_search lists and tool_invoke takes when
	// deferred.
	Wire  string
	Label string
	// Def is the capped definition (CapTool): what is sent inline, or what
	// tool_inspect shows.
	Def tool.Def
	// Tokens is what the tool costs inline (its entry in the request's
	// tools array).
	Tokens int
	// Asks is true when the tool needs approval on every call (F3). It is
	// only worked out when not everything fits (false otherwise).
	Asks bool

	full tool.Def // as the tool declared it: for the gate and the approval pane
	tool tool.Tool
}

// Plan is how a run offers its tools (SPEC F1–F3). It is computed once at
// the start of a run and frozen with it (SPEC D6).
type Plan struct {
	// Inline tools are sent in full with every request; Deferred tools are
	// reachable only through the meta-tools.
	Inline, Deferred []PlannedTool
	// Meta are the wire names of tool_search, tool_inspect and tool_invoke
	// when anything is deferred, else empty.
	Meta []string
	// Listing is the text added to the system prompt when anything is
	// deferred: per server its label and tool count, then names as space
	// allows.
	Listing string
	// WireNames maps every wire name the run answers to (inline, meta and
	// deferred) to its identity.
	WireNames map[string]string

	// AllInlineTokens is what sending every tool in full would cost.
	// InlineTokens is what the inline tools cost, DeferredTokens what the
	// deferred ones would have cost, MetaTokens the meta-tools,
	// ListingTokens the listing. Budget is Fraction × Window.
	AllInlineTokens, InlineTokens, DeferredTokens, MetaTokens, ListingTokens int
	Budget, Window                                                           int
	// Fits is true when SentTokens() ≤ Budget.
	Fits bool
	// Err, when set, is one sentence saying which tools must be inline,
	// what they cost and how to trim the selection (wrapping ErrToolBudget),
	// or why a tool cannot be offered (wrapping ErrBadTool). A run with a
	// plan error ends before any request.
	Err error
}

// SentTokens is what the plan sends for tools with every request: inline
// tools, meta-tools and the listing.
func (p Plan) SentTokens() int { return p.InlineTokens + p.MetaTokens + p.ListingTokens }

// ToolPlanSummary is the plan in figures, as RunStarted carries it (the TUI
// shows "tools 1.2k/2.0k").
type ToolPlanSummary struct {
	Inline, Deferred int
	// Sent is SentTokens(); AllInline what everything inline would cost.
	Sent, AllInline, Budget int
	Fits                    bool
}

// Summary returns the plan's figures.
func (p Plan) Summary() ToolPlanSummary {
	return ToolPlanSummary{Inline: len(p.Inline), Deferred: len(p.Deferred), Sent: p.SentTokens(),
		AllInline: p.AllInlineTokens, Budget: p.Budget, Fits: p.Fits}
}

// CachedCount wraps a token counter so that each distinct text is counted
// once (keyed by its SHA-256). The result is safe for concurrent use.
func CachedCount(count func(string) int) func(string) int {
	var mu sync.Mutex
	seen := make(map[[32]byte]int)
	return func(s string) int {
		k := sha256.Sum256([]byte(s))
		mu.Lock()
		n, ok := seen[k]
		mu.Unlock()
		if ok {
			return n
		}
		n = count(s)
		mu.Lock()
		seen[k] = n
		mu.Unlock()
		return n
	}
}

// PlanTools decides which tools a run sends in full and which it defers
// behind tool_search, tool_inspect and tool_invoke (SPEC F1–F3):
//
//   - Every definition is capped (CapTool) and counted as the request
//     entry it becomes.
//   - If all of them fit the budget (Fraction × Window), all are inline.
//   - Otherwise tools that do not ask the person are deferred, largest
//     first (ties by identity), until what is sent — inline tools, the
//     three meta-tools and the listing — fits. Tools that ask stay inline.
//   - If deferring every eligible tool would not send fewer tokens than
//     sending everything, nothing is deferred. If what must stay inline
//     still does not fit, Err says so (ErrToolBudget) and a run ends before
//     inference.
//
// The plan depends only on its input: the same tools, window, fraction,
// classification and counts give the same plan.
func PlanTools(in PlanInput) Plan {
	if in.Window <= 0 {
		in.Window = DefaultContextWindow
	}
	if in.Fraction <= 0 {
		in.Fraction = DefaultToolBudget
	}
	in.Fraction = min(in.Fraction, 1)
	if in.Count == nil {
		in.Count = EstimateTokens
	}
	if in.Label == nil {
		in.Label = tool.Label
	}
	p := Plan{Window: in.Window, Budget: int(in.Fraction * float64(in.Window))}
	tools, err := planned(in)
	if err != nil {
		p.Err = newError(tool.ErrInvalid, err,
			"a tool cannot be offered to the model (%v); remove it from the selection and try again", err)
		return p
	}
	for _, t := range tools {
		p.AllInlineTokens += t.Tokens
	}
	p.WireNames = make(map[string]string, len(tools)+len(metaIdentities))
	for _, t := range tools {
		p.WireNames[t.Wire] = t.Identity
	}
	if p.AllInlineTokens <= p.Budget {
		p.Inline, p.InlineTokens, p.Fits = tools, p.AllInlineTokens, true
		return p
	}

	// Defer eligible tools, largest first, until what is sent fits. Only
	// now is the classification asked (a run's policy is consulted only
	// when something may be deferred).
	order := make([]int, 0, len(tools))
	for i := range tools {
		tools[i].Asks = in.AsksPerson != nil && in.AsksPerson(tools[i].Identity)
	}
	for i, t := range tools {
		if !t.Asks {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(tools[b].Tokens, tools[a].Tokens), strings.Compare(tools[a].Identity, tools[b].Identity))
	})
	metaTokens := 0
	for _, d := range metaDefs() {
		metaTokens += in.Count(toolEntryJSON(d.wire, d.def))
	}
	deferred := make([]bool, len(tools))
	inline := p.AllInlineTokens
	best := deferralState{sent: -1}
	for k, i := range order {
		deferred[i] = true
		inline -= tools[i].Tokens
		if inline+metaTokens > p.Budget && k < len(order)-1 {
			continue // the listing only adds; no need to build it yet
		}
		listing := buildListing(tools, deferred, listingCap(p.Budget))
		st := deferralState{deferred: slices.Clone(deferred), inline: inline, listing: listing, listTokens: in.Count(listing)}
		st.sent = inline + metaTokens + st.listTokens
		best = st
		if st.sent <= p.Budget {
			break
		}
	}
	if len(order) == 0 || best.sent >= p.AllInlineTokens {
		// Deferral would not save anything: send everything, and say why
		// it does not fit.
		p.Inline, p.InlineTokens = tools, p.AllInlineTokens
		p.Err = budgetError(p, tools, nil, 0)
		return p
	}
	for i, t := range tools {
		if best.deferred[i] {
			p.Deferred = append(p.Deferred, t)
			p.DeferredTokens += t.Tokens
		} else {
			p.Inline = append(p.Inline, t)
		}
	}
	p.InlineTokens, p.MetaTokens, p.Listing, p.ListingTokens = best.inline, metaTokens, best.listing, best.listTokens
	for _, d := range metaDefs() {
		p.Meta = append(p.Meta, d.wire)
		p.WireNames[d.wire] = d.def.Identity
	}
	p.Fits = p.SentTokens() <= p.Budget
	if !p.Fits {
		p.Err = budgetError(p, p.Inline, p.Meta, metaTokens+p.ListingTokens)
	}
	return p
}

// deferralState is one candidate of PlanTools' deferral loop.
type deferralState struct {
	deferred                 []bool
	inline, listTokens, sent int
	listing                  string
}

// planned caps, names and counts the tools.
func planned(in PlanInput) ([]PlannedTool, error) {
	fulls := make([]tool.Def, 0, len(in.Tools))
	ids := make([]string, 0, len(in.Tools)+len(metaIdentities))
	for _, t := range in.Tools {
		full := t.Def()
		if slices.Contains(metaIdentities, full.Identity) {
			return nil, fmt.Errorf("%w: tool %q is reserved for vouch's own tool search", tool.ErrInvalid, full.Identity)
		}
		if len(full.Parameters) == 0 {
			full.Parameters = json.RawMessage(emptySchema)
		}
		full.Parameters = slices.Clone(full.Parameters)
		fulls = append(fulls, full)
		ids = append(ids, full.Identity)
	}
	// The meta-tools' names are reserved in every plan, so that deferring
	// never changes another tool's wire name.
	wire, err := tool.WireNames(append(ids, metaIdentities...))
	if err != nil {
		return nil, err
	}
	byIdentity := make(map[string]string, len(wire))
	for w, id := range wire {
		byIdentity[id] = w
	}
	keys := make([][32]byte, len(fulls))
	if in.cache != nil {
		for i, full := range fulls {
			keys[i] = planKey(full)
		}
		in.cache.load(keys) // what earlier sessions planned (plan_store.go)
	}
	out := make([]PlannedTool, 0, len(in.Tools))
	entries := make([]string, 0, len(in.Tools))
	for i, t := range in.Tools {
		full := fulls[i]
		w := byIdentity[full.Identity]
		capped, entry, err := in.cache.capped(keys[i], w, full)
		if err != nil {
			return nil, err
		}
		out = append(out, PlannedTool{Identity: full.Identity, Wire: w, Label: in.Label(full.Identity), Def: capped, full: full, tool: t})
		entries = append(entries, entry)
	}
	if in.prefetch != nil {
		in.prefetch(entries)
	}
	for i, entry := range entries {
		out[i].Tokens = in.Count(entry)
	}
	return out, nil
}

// toolEntryJSON is a tool's entry in a request's tools array, as counted.
func toolEntryJSON(wire string, def tool.Def) string {
	b, err := json.Marshal(openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name: wire, Description: def.Description, Parameters: def.Parameters}})
	if err != nil {
		return wire + def.Description + string(def.Parameters)
	}
	return string(b)
}

// listingCap bounds the names part of the listing, in estimated tokens.
func listingCap(budget int) int { return max(48, budget/8) }

// budgetError words a plan that does not fit: the tools that must be sent
// in full, most costly first, and what to do.
func budgetError(p Plan, inline []PlannedTool, meta []string, metaTokens int) error {
	type item struct {
		name   string
		tokens int
	}
	items := make([]item, 0, len(inline)+1)
	total := 0
	for _, t := range inline {
		items = append(items, item{t.Wire, t.Tokens})
		total += t.Tokens
	}
	if len(meta) > 0 {
		items = append(items, item{"the tool-search tools and listing", metaTokens})
		total += metaTokens
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(b.tokens, a.tokens), strings.Compare(a.name, b.name))
	})
	const shown = 6
	parts := make([]string, 0, shown+1)
	for i, it := range items {
		if i == shown {
			rest := 0
			for _, r := range items[shown:] {
				rest += r.tokens
			}
			parts = append(parts, fmt.Sprintf("%d more (%s)", len(items)-shown, tokenCount(rest)))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", it.name, tokenCount(it.tokens)))
	}
	return newError(ErrToolBudget, nil,
		"the tools that must be sent in full need %s but the tool budget is %s (%d%% of the %s-token window): %s; turn off some tools for this conversation in Settings › Tools (ctrl+x), or raise the window",
		tokenCount(total), tokenCount(p.Budget), int(float64(p.Budget)*100/float64(p.Window)+0.5), commas(p.Window), strings.Join(parts, ", "))
}

// tokenCount words a token count: "1,234 tokens".
func tokenCount(n int) string {
	if n == 1 {
		return "1 token"
	}
	return commas(n) + " tokens"
}

// commas formats n with thousands separators.
func commas(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
