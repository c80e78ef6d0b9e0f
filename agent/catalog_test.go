package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"vouch/tool"
)

// The real public MCP catalogs (tools/list of 20 servers) live outside the
// repository, in ../../shared/catalogs or $VOUCH_CATALOGS; they are read at
// run time and never copied in. Tests and benchmarks over them skip, saying
// why, when they are absent.

// catalogTool is one tool of a real catalog.
type catalogTool struct {
	server, name, title, description string
	schema                           json.RawMessage
}

func (c catalogTool) identity() string { return "mcp:" + c.server + ":" + c.name }

func (c catalogTool) tool() tool.Tool {
	return funcTool{def: tool.Def{Identity: c.identity(), Description: c.description, Parameters: c.schema},
		fn: func(context.Context, json.RawMessage) (tool.Result, error) { return tool.Result{Text: "ok"}, nil }}
}

func catalogDir() string {
	if d := os.Getenv("VOUCH_CATALOGS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "catalogs")
}

// loadCatalogs reads the catalogs whose file names pass keep (server label
// = file name without .json), in file-name order.
func loadCatalogs(tb testing.TB, keep func(file string) bool) []catalogTool {
	tb.Helper()
	dir := catalogDir()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Skipf("skipped: no MCP catalogs at %s (set VOUCH_CATALOGS to the shared catalogs folder)", dir)
	}
	sort.Strings(files)
	var out []catalogTool
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "_") || !keep(base) {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var cat struct {
			Tools []struct {
				Name        string          `json:"name"`
				Title       string          `json:"title"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
				Annotations struct {
					Title string `json:"title"`
				} `json:"annotations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(raw, &cat); err != nil {
			tb.Fatalf("%s: %v", base, err)
		}
		for _, t := range cat.Tools {
			title := t.Title
			if title == "" {
				title = t.Annotations.Title
			}
			out = append(out, catalogTool{server: strings.TrimSuffix(base, ".json"), name: t.Name, title: title,
				description: t.Description, schema: t.InputSchema})
		}
	}
	return out
}

// fullCatalogs are the 20 complete catalogs (the *.default.json subsets
// left out): 387 tools.
func fullCatalogs(file string) bool { return !strings.Contains(file, ".default.") }

// typicalSelection is what a person might enable: the servers' default
// toolsets plus the small reference servers.
func typicalSelection(file string) bool {
	switch file {
	case "github-mcp-server.default.json", "playwright-mcp.default.json", "filesystem.json", "git.json", "fetch.json",
		"time.json", "memory.json", "context7.json", "sequentialthinking.json", "everything.json":
		return true
	}
	return false
}

func catalogIndex(tools []catalogTool, suffix string) *SearchIndex {
	entries := make([]SearchEntry, len(tools))
	for i, t := range tools {
		entries[i] = SearchEntry{Name: "mcp_" + t.name + suffix, Tool: t.name + suffix, Label: t.server + suffix, Title: t.title,
			Description: t.description, Params: paramNames(t.schema)}
	}
	return NewSearchIndex(entries)
}

type toolQuery struct {
	Query  string `json:"query"`
	Tool   string `json:"tool"`
	Server string `json:"server"`
}

func loadQueries(tb testing.TB) []toolQuery {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "tool_queries.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var qs []toolQuery
	if err := json.Unmarshal(raw, &qs); err != nil {
		tb.Fatal(err)
	}
	return qs
}

// searchHitFloor is the share of testdata/tool_queries.json whose intended
// tool must be among tool_search's top 5 over all 387 catalog tools.
const searchHitFloor = 0.80

// TestToolSearchHitRate (SPEC F2, issue 5 evidence): natural-language
// queries written from the real catalogs find their tool in the top 5.
func TestToolSearchHitRate(t *testing.T) {
	tools := loadCatalogs(t, fullCatalogs)
	ix := catalogIndex(tools, "")
	qs := loadQueries(t)
	if len(qs) < 50 {
		t.Fatalf("got %d queries, want at least 50", len(qs))
	}
	hits := 0
	for _, q := range qs {
		want := slices.IndexFunc(tools, func(c catalogTool) bool { return c.server+".json" == q.Server && c.name == q.Tool })
		if want < 0 {
			t.Fatalf("query %q names %s in %s, which the catalogs lack", q.Query, q.Tool, q.Server)
		}
		res := ix.Search(q.Query, 5)
		if slices.ContainsFunc(res, func(h SearchHit) bool { return h.Index == want }) {
			hits++
			continue
		}
		var got []string
		for _, h := range res {
			got = append(got, tools[h.Index].server+"/"+tools[h.Index].name)
		}
		t.Logf("miss: %q wants %s/%s, got %v", q.Query, q.Server, q.Tool, got)
	}
	rate := float64(hits) / float64(len(qs))
	t.Logf("tool_search hit rate (top 5 of %d tools): %d/%d = %.1f%%", len(tools), hits, len(qs), 100*rate)
	if rate < searchHitFloor {
		t.Errorf("hit rate %.1f%%, want at least %.0f%%", 100*rate, 100*searchHitFloor)
	}
}

// TestToolSearchExactNameFirst: a query that is a tool's name puts that
// tool first, in either separator spelling and case, over all catalogs.
func TestToolSearchExactNameFirst(t *testing.T) {
	tools := loadCatalogs(t, fullCatalogs)
	ix := catalogIndex(tools, "")
	for _, name := range []string{"create_branch", "browser_click", "GET_ME", "resolve_library_id", "mcp_git_status", "fetch"} {
		t.Run(name, func(t *testing.T) {
			res := ix.Search(name, 5)
			if len(res) == 0 || exactKey(tools[res[0].Index].name) != strings.TrimPrefix(exactKey(name), "mcp_") {
				t.Fatalf("got %+v, want %s first", res, name)
			}
		})
	}
}

// replicated returns the catalogs copied n times with suffixed names and
// labels: a catalog of over 1,000 distinct tools.
func replicated(tools []catalogTool, n int) *SearchIndex {
	var entries []SearchEntry
	for i := range n {
		suffix := ""
		if i > 0 {
			suffix = fmt.Sprintf("_%d", i)
		}
		entries = append(entries, catalogIndex(tools, suffix).entries...)
	}
	return NewSearchIndex(entries)
}

// BenchmarkToolSearch1000 measures one tool_search over 1,161 tools (the
// 387 catalog tools three times), cycling through the test queries; it
// reports the median (p50-ns) and p99 besides the mean.
func BenchmarkToolSearch1000(b *testing.B) {
	ix := replicated(loadCatalogs(b, fullCatalogs), 3)
	if ix.Len() < 1000 {
		b.Fatalf("index has %d tools, want at least 1,000", ix.Len())
	}
	qs := loadQueries(b)
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		ix.Search(qs[i%len(qs)].Query, 5)
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(durations[len(durations)*99/100].Nanoseconds()), "p99-ns")
}

// TestToolBudgetFigures (SPEC F1–F3, issue 5 evidence) reports, for
// windows of 4k, 8k and 32k, the tokens sent for tools with everything
// inline (as the servers describe them, and capped) against vouch's plan,
// counted with EstimateTokens. Every plan must fit its budget and send no
// more than everything inline.
func TestToolBudgetFigures(t *testing.T) {
	for _, sel := range []struct {
		name string
		keep func(string) bool
	}{{"all 20 servers", fullCatalogs}, {"typical selection", typicalSelection}} {
		tools := loadCatalogs(t, sel.keep)
		var in []tool.Tool
		raw := 0
		for _, c := range tools {
			in = append(in, c.tool())
			raw += EstimateTokens(toolEntryJSON("mcp_"+c.name, tool.Def{Description: c.description, Parameters: c.schema}))
		}
		for _, window := range []int{4096, 8192, 32768} {
			p := PlanTools(PlanInput{Tools: in, Window: window})
			if p.Err != nil {
				t.Errorf("%s, %d: %v", sel.name, window, p.Err)
				continue
			}
			if !p.Fits || p.SentTokens() > p.AllInlineTokens {
				t.Errorf("%s, %d: plan %+v does not fit or sends more than everything", sel.name, window, p.Summary())
			}
			t.Logf("%s (%d tools), window %6d: budget %5d; all inline raw %6d (%5.0f%% of window), capped %6d; plan sends %5d (%4.1f%%: inline %d tools %d, meta %d, listing %d), deferred %d",
				sel.name, len(tools), window, p.Budget, raw, 100*float64(raw)/float64(window), p.AllInlineTokens,
				p.SentTokens(), 100*float64(p.SentTokens())/float64(window), len(p.Inline), p.InlineTokens, p.MetaTokens, p.ListingTokens, len(p.Deferred))
		}
	}
}
