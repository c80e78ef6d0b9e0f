package lock

import (
	"fmt"
	"slices"
	"strings"

	"vouch/safetext"
)

// Drift is one difference between a machine and a lock.
type Drift struct {
	// Kind is server, tool, skill, server-skill or profile.
	Kind string `json:"kind"`
	// Subject names the item ("notes", "mcp:notes:lookup", "pdf").
	Subject string `json:"subject"`
	// Text is the drift line, subject first; neutralised.
	Text string `json:"text"`
}

func drift(kind, subject, format string, args ...any) Drift {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = safetext.Line(s, 120)
		}
	}
	s := safetext.Line(subject, 120)
	return Drift{Kind: kind, Subject: s, Text: fmt.Sprintf("%s %s: ", label(kind), s) + fmt.Sprintf(format, args...)}
}

func label(kind string) string {
	if kind == "server-skill" {
		return "server skill"
	}
	return kind
}

// Diff names every way have (the machine's lock, as exported) differs
// from want, in the lock's order. served maps a rule's Subject to the
// digest of the definition its server serves now (absent: not served or
// not cached), so that a pinned definition the server no longer serves is
// named too.
func Diff(have Lock, served map[string]string, want Lock) []Drift {
	have.Sort()
	want.Sort()
	var out []Drift
	out = append(out, diffServers(have.Servers, want.Servers)...)
	out = append(out, diffRules(have.Rules, served, want.Rules)...)
	out = append(out, diffSkills(have.Skills, want.Skills)...)
	out = append(out, diffServerSkills(have.ServerSkills, want.ServerSkills)...)
	out = append(out, diffProfiles(have.Profiles, want.Profiles)...)
	return out
}

func diffServers(have, want []Server) []Drift {
	var out []Drift
	for _, w := range want {
		i := slices.IndexFunc(have, func(h Server) bool { return strings.EqualFold(h.Name, w.Name) })
		if i < 0 {
			out = append(out, drift("server", w.Name, "not configured here, the lock names it at %s", w.URL))
			continue
		}
		h := have[i]
		if h.URL != w.URL {
			out = append(out, drift("server", w.Name, "URL %s, the lock says %s", h.URL, w.URL))
		}
		if h.Header != w.Header {
			out = append(out, drift("server", w.Name, "secret header %s, the lock says %s", cmpOr(h.Header, "none"), cmpOr(w.Header, "none")))
		}
	}
	for _, h := range have {
		if !slices.ContainsFunc(want, func(w Server) bool { return strings.EqualFold(h.Name, w.Name) }) {
			out = append(out, drift("server", h.Name, "configured here, the lock does not name it"))
		}
	}
	return out
}

func diffRules(have []Rule, served map[string]string, want []Rule) []Drift {
	var out []Drift
	find := func(list []Rule, r Rule) int {
		return slices.IndexFunc(list, func(h Rule) bool { return h.Server == r.Server && h.Tool == r.Tool })
	}
	for _, w := range want {
		subj := w.Subject()
		if s, ok := served[subj]; ok && w.Pin != "" && s != w.Pin && w.Server != "" {
			out = append(out, drift("server", w.Server, "the served definition of %s differs from the pinned one", w.Tool))
		}
		i := find(have, w)
		if i < 0 {
			out = append(out, drift("tool", subj, "no rule here, the lock says %s", RuleText(w)))
			continue
		}
		h := have[i]
		if RuleText(h) != RuleText(w) {
			out = append(out, drift("tool", subj, "rule %s, the lock says %s", RuleText(h), RuleText(w)))
		}
		if h.Effect != w.Effect {
			out = append(out, drift("tool", subj, "effect %s, the lock says %s", h.Effect, w.Effect))
		}
		if h.Pin != w.Pin {
			out = append(out, drift("tool", subj, "the rule pins %s, the lock pins %s", short(h.Pin), short(w.Pin)))
		}
	}
	for _, h := range have {
		if find(want, h) < 0 {
			out = append(out, drift("tool", h.Subject(), "rule %s here, the lock has no rule for it", RuleText(h)))
		}
	}
	return out
}

func diffSkills(have, want []Skill) []Drift {
	var out []Drift
	for _, w := range want {
		i := slices.IndexFunc(have, func(h Skill) bool { return h.Name == w.Name })
		if i < 0 {
			out = append(out, drift("skill", w.Name, "not installed, the lock pins version %d (sha256 %s)", w.Version, short(w.SHA256)))
			continue
		}
		h := have[i]
		switch {
		case h.SHA256 != w.SHA256 && h.Version != w.Version:
			out = append(out, drift("skill", w.Name, "version %d, the lock pins %d", h.Version, w.Version))
		case h.SHA256 != w.SHA256:
			out = append(out, drift("skill", w.Name, "package sha256 %s, the lock pins %s", short(h.SHA256), short(w.SHA256)))
		case !slices.Equal(h.Accepted, w.Accepted):
			out = append(out, drift("skill", w.Name, "accepted findings %s, the lock says %s", list(h.Accepted), list(w.Accepted)))
		}
	}
	for _, h := range have {
		if !slices.ContainsFunc(want, func(w Skill) bool { return h.Name == w.Name }) {
			out = append(out, drift("skill", h.Name, "version %d installed here, the lock does not pin it", h.Version))
		}
	}
	return out
}

func diffServerSkills(have, want []ServerSkill) []Drift {
	var out []Drift
	same := func(a, b ServerSkill) bool { return a.Server == b.Server && a.URI == b.URI }
	for _, w := range want {
		i := slices.IndexFunc(have, func(h ServerSkill) bool { return same(h, w) })
		subj := w.Server + " " + w.URI
		switch {
		case i < 0:
			out = append(out, drift("server-skill", subj, "not approved here, the lock approves the set %s", short(w.Set)))
		case have[i].Set != w.Set:
			out = append(out, drift("server-skill", subj, "approved set %s, the lock approves %s", short(have[i].Set), short(w.Set)))
		}
	}
	for _, h := range have {
		if !slices.ContainsFunc(want, func(w ServerSkill) bool { return same(h, w) }) {
			out = append(out, drift("server-skill", h.Server+" "+h.URI, "approved here, the lock does not name it"))
		}
	}
	return out
}

func diffProfiles(have, want []Profile) []Drift {
	var out []Drift
	for _, w := range want {
		i := slices.IndexFunc(have, func(h Profile) bool { return h.Name == w.Name })
		if i < 0 {
			out = append(out, drift("profile", w.Name, "not defined here, the lock names revision %d", w.Revision))
			continue
		}
		h := have[i]
		if h.Digest != w.Digest {
			out = append(out, drift("profile", w.Name, "revision %d differs from the lock's revision %d (digest %s, the lock pins %s)", h.Revision, w.Revision, short(h.Digest), short(w.Digest)))
		}
		if h.DefinitionDigest != w.DefinitionDigest {
			out = append(out, drift("profile", w.Name, "its definition %s revision %d differs from the lock's %s revision %d", h.Definition, h.DefinitionRevision, w.Definition, w.DefinitionRevision))
		}
	}
	for _, h := range have {
		if !slices.ContainsFunc(want, func(w Profile) bool { return h.Name == w.Name }) {
			out = append(out, drift("profile", h.Name, "defined here, the lock does not name it"))
		}
	}
	return out
}

// short is a digest cut to its first 12 hex digits, "none" when empty.
func short(d string) string {
	if d == "" {
		return "none"
	}
	p, h, ok := strings.Cut(d, ":")
	if !ok {
		p, h = "", d
	} else {
		p += ":"
	}
	if len(h) > 12 {
		h = h[:12] + "…"
	}
	return p + h
}

func list(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ",")
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
