package agent

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"vouch/tool"
)

// SearchEntry is one tool as tool_search knows it.
type SearchEntry struct {
	// Name is the wire name the model calls it by; Tool the server's own
	// name for it (for MCP tools Name is "mcp_" + Tool, or hashed).
	Name, Tool string
	// Label is the server's label; Title the tool's display title, if any.
	Label, Title string
	Description  string
	// Params are the names of its top-level parameters.
	Params []string
}

// SearchHit is one result: the entry's index in the slice given to
// NewSearchIndex, its name and its score (higher is better).
type SearchHit struct {
	Index int
	Name  string
	Score float64
}

// Field weights: a word in a tool's name says more than one in its prose.
const (
	weightName    = 3.0
	weightTitle   = 2.0
	weightLabel   = 1.0
	weightParam   = 1.0
	weightDesc    = 1.0
	weightSynonym = 0.5 // of a query word's related words
	bm25K1        = 1.2
	bm25B         = 0.75
	exactBonus    = 1e6
)

type posting struct {
	doc int32
	tf  float32
}

// SearchIndex ranks tools for a query (SPEC F2): an exact name first, then
// a BM25 score over weighted fields — the name split into words at "_",
// "-", "." and camel-case humps, the title, the server label, parameter
// names and the description — with light stemming and a small table of
// related words (get/fetch/read, delete/remove, folder/directory, …). It is
// immutable after NewSearchIndex and safe for concurrent use.
type SearchIndex struct {
	entries  []SearchEntry
	exact    map[string][]int
	postings map[string][]posting
	docLen   []float32
	avgLen   float64
}

// NewSearchIndex indexes entries.
func NewSearchIndex(entries []SearchEntry) *SearchIndex {
	ix := &SearchIndex{entries: slices.Clone(entries), exact: map[string][]int{}, postings: map[string][]posting{},
		docLen: make([]float32, len(entries))}
	total := 0.0
	for i, e := range entries {
		tf := map[string]float32{}
		add := func(text string, w float32) {
			for _, term := range searchTerms(text) {
				tf[term] += w
				ix.docLen[i] += w
			}
		}
		name := e.Tool
		if name == "" {
			name = e.Name
		}
		add(name, weightName)
		add(e.Title, weightTitle)
		add(e.Label, weightLabel)
		add(strings.Join(e.Params, " "), weightParam)
		add(e.Description, weightDesc)
		for _, n := range []string{e.Name, e.Tool} {
			if n != "" {
				k := exactKey(n)
				if !slices.Contains(ix.exact[k], i) {
					ix.exact[k] = append(ix.exact[k], i)
				}
			}
		}
		for term, f := range tf {
			ix.postings[term] = append(ix.postings[term], posting{doc: int32(i), tf: f})
		}
		total += float64(ix.docLen[i])
	}
	if len(entries) > 0 {
		ix.avgLen = total / float64(len(entries))
	}
	return ix
}

// Len is the number of indexed tools.
func (ix *SearchIndex) Len() int { return len(ix.entries) }

// Search returns at most limit hits for query, best first; ties keep the
// entries' order. An entry whose name equals the query (ignoring case, and
// "-" against "_") comes first.
func (ix *SearchIndex) Search(query string, limit int) []SearchHit {
	if limit <= 0 || len(ix.entries) == 0 {
		return nil
	}
	scores := make([]float64, len(ix.entries))
	var touched []int
	bump := func(doc int, s float64) {
		if scores[doc] == 0 {
			touched = append(touched, doc)
		}
		scores[doc] += s
	}
	for _, doc := range ix.exact[exactKey(query)] {
		bump(doc, exactBonus)
	}
	weights := map[string]float64{}
	for _, term := range searchTerms(query) {
		weights[term] = 1
	}
	for term := range weights {
		for _, rel := range relatedTerms[term] {
			if _, ok := weights[rel]; !ok {
				weights[rel] = weightSynonym
			}
		}
	}
	n := float64(len(ix.entries))
	for term, qw := range weights {
		ps := ix.postings[term]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := tf + bm25K1*(1-bm25B+bm25B*float64(ix.docLen[p.doc])/ix.avgLen)
			bump(int(p.doc), qw*idf*tf*(bm25K1+1)/norm)
		}
	}
	slices.SortFunc(touched, func(a, b int) int {
		return cmp.Or(cmp.Compare(scores[b], scores[a]), cmp.Compare(a, b))
	})
	touched = touched[:min(limit, len(touched))]
	hits := make([]SearchHit, len(touched))
	for i, doc := range touched {
		hits[i] = SearchHit{Index: doc, Name: ix.entries[doc].Name, Score: scores[doc]}
	}
	return hits
}

// exactKey folds a name for exact matching.
func exactKey(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}

// searchTerms splits text into stemmed lower-case words without stop words.
func searchTerms(text string) []string {
	words := nameWords(text)
	out := words[:0]
	for _, w := range words {
		if stopWords[w] || (tool.IsWirePrefixWord(w) && len(words) > 1) {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// stem strips common English suffixes so that "issues", "issue" and
// "listing", "list" meet; both sides of a match are stemmed alike.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:len(w)-1]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops one of a doubled final consonant ("runn" → "run").
func undouble(w string) string {
	if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiousl", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords carry no meaning for tool search.
var stopWords = wordSet("a an the to of in on at for from with by and or is are be it its this that these those " +
	"my me i we our you your can could would should will please want need some any what which who how do does " +
	"into about as up out there their them then than so just also if using use via all")

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// relatedTerms maps a stemmed word to stemmed words of like meaning that a
// query also looks for, at weightSynonym.
var relatedTerms = relatedTable([][]string{
	{"get", "fetch", "read", "retrieve", "show", "view", "obtain", "load", "display", "see", "look"},
	{"list", "enumerate", "browse"},
	{"create", "make", "new", "add", "open", "start", "write"},
	{"delete", "remove", "erase", "destroy", "drop", "trash", "discard"},
	{"update", "edit", "modify", "change", "set", "alter", "replace", "rename"},
	{"search", "find", "query", "lookup", "look", "locate", "discover"},
	{"run", "execute", "trigger", "launch", "invoke", "start"},
	{"write", "save", "store", "put", "persist"},
	{"directory", "folder", "dir"},
	{"file", "document"},
	{"repository", "repo", "project"},
	{"issue", "ticket", "bug"},
	{"pr", "pull"},
	{"message", "post", "send", "chat"},
	{"navigate", "go", "visit", "goto", "url"},
	{"click", "press", "tap"},
	{"type", "enter", "fill", "input"},
	{"screenshot", "capture", "snapshot", "screen", "picture", "image"},
	{"user", "account", "profile", "person", "member"},
	{"comment", "reply", "respond"},
	{"library", "package", "module", "framework"},
	{"doc", "documentation", "docs"},
	{"address", "place", "location", "geocode", "coordinate"},
	{"direction", "route", "travel", "distance"},
	{"time", "clock", "timezone", "hour", "date"},
	{"page", "website", "web", "site", "url", "browser"},
	{"table", "database", "sql", "db"},
	{"history", "log"},
	{"size", "length", "big"},
	{"tree", "hierarchy", "structure"},
	{"move", "rename", "relocate"},
	{"copy", "duplicate"},
	{"diff", "change", "difference"},
})

func relatedTable(groups [][]string) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		for _, a := range g {
			for _, b := range g {
				if a != b {
					sa, sb := stem(a), stem(b)
					if sa != sb && !slices.Contains(m[sa], sb) {
						m[sa] = append(m[sa], sb)
					}
				}
			}
		}
	}
	return m
}
