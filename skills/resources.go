package skills

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// linkPatterns find what SKILL.md's body refers to; compiled on first use,
// not at program start.
type linkPatterns struct {
	// md finds inline link and image targets: [text](target "title").
	md *regexp.Regexp
	// ref finds reference definitions: [id]: target.
	ref *regexp.Regexp
	// bare finds relative file paths written in prose or code spans.
	bare *regexp.Regexp
}

var links = sync.OnceValue(func() linkPatterns {
	return linkPatterns{
		md:   regexp.MustCompile(`\]\(\s*<?([^)\s>]+)`),
		ref:  regexp.MustCompile(`(?m)^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`),
		bare: regexp.MustCompile(`(?:^|[\s(\x60'"])((?:\.{1,2}/)?(?:[\p{L}\p{N}_.\-]+/)*[\p{L}\p{N}_\-][\p{L}\p{N}_.\-]*\.[\p{L}\p{N}]{1,8})`),
	}
})

// linkedResources returns the kept text files SKILL.md's body refers to —
// by markdown link or by a relative path written out — in path order: the
// declared resources of a package without a sidecar (SPEC H5). lookup
// resolves a path to a kept file's canonical name, "" if none; a link to a
// file that was left out adds a warning instead.
func linkedResources(body string, lookup func(string) string, excluded map[string]string) (res, warnings []string) {
	found := map[string]bool{}
	warned := map[string]bool{}
	try := func(target string, linked bool) {
		t := target
		if i := strings.IndexAny(t, "#?"); i >= 0 {
			t = t[:i]
		}
		if t == "" || strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") || strings.HasPrefix(t, "/") {
			return
		}
		t = path.Clean(t)
		if t == "." || t == ".." || strings.HasPrefix(t, "../") {
			return
		}
		if name := lookup(t); name != "" {
			found[name] = true
			return
		}
		if why, ok := excluded[t]; ok && linked && !warned[t] {
			warned[t] = true
			warnings = append(warnings, "SKILL.md links to "+t+", which was left out ("+why+")")
		}
	}
	lp := links()
	for _, m := range lp.md.FindAllStringSubmatch(body, -1) {
		try(m[1], true)
	}
	for _, m := range lp.ref.FindAllStringSubmatch(body, -1) {
		try(m[1], true)
	}
	for _, m := range lp.bare.FindAllStringSubmatch(body, -1) {
		try(m[1], false)
	}
	for name := range found {
		res = append(res, name)
	}
	sort.Strings(res)
	return res, warnings
}
