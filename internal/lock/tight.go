package lock

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// classRank orders classes from tightest (block) to loosest (allow); -1
// for a class that is none of them.
func classRank(c string) int {
	switch c {
	case "block":
		return 0
	case "ask":
		return 1
	case "allow":
		return 2
	}
	return -1
}

// effectRank orders effects from tightest (mutating: never replayed, SPEC
// B7) to loosest (read-only); -1 for none of them.
func effectRank(e string) int {
	switch e {
	case "mutating":
		return 0
	case "idempotent":
		return 1
	case "read-only":
		return 2
	}
	return -1
}

// Baseline is what a managed lock allows for a tool it has no rule for:
// the default every external tool starts from (ask, mutating).
func Baseline(server, tool string) Rule {
	return Rule{Server: server, Tool: tool, Class: "ask", Effect: "mutating"}
}

// RuleFor returns the lock's rule for the tool, or ok false.
func (l Lock) RuleFor(server, tool string) (Rule, bool) {
	for _, r := range l.Rules {
		if r.Server == server && r.Tool == tool {
			return r, true
		}
	}
	return Rule{}, false
}

// Server returns the lock's server named name (case-insensitive), or ok
// false.
func (l Lock) Server(name string) (Server, bool) {
	for _, s := range l.Servers {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Server{}, false
}

// Skill returns the lock's pin of the skill name, or ok false.
func (l Lock) Skill(name string) (Skill, bool) {
	for _, s := range l.Skills {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// Looser says how have is looser than want, the rule of a managed lock
// (SPEC N3): a looser class, a looser effect, a constraint dropped or
// widened, or an allow bound to a definition the lock does not pin. It
// returns "" when have is as tight as want or tighter; tightening is
// always allowed.
func Looser(have, want Rule) string {
	hc, wc := classRank(have.Class), classRank(want.Class)
	if hc < 0 {
		hc = 2 // an unknown class counts as the loosest
	}
	if hc > wc {
		return fmt.Sprintf("the lock says %s, not %s", want.Class, have.Class)
	}
	if hc == 0 {
		return "" // block is the tightest, whatever the rest says
	}
	he, we := effectRank(have.Effect), effectRank(want.Effect)
	if he < 0 {
		he = 0 // unknown counts as mutating (SPEC D1)
	}
	if we < 0 {
		we = 0
	}
	if he > we {
		return fmt.Sprintf("the lock says the effect is %s, not %s", want.Effect, have.Effect)
	}
	if hc < 2 {
		return ""
	}
	// Both allow: every constraint of the lock must stand, no wider.
	for _, wcn := range want.Constraints {
		i := slices.IndexFunc(have.Constraints, func(c Constraint) bool { return c.Arg == wcn.Arg && c.Kind == wcn.Kind })
		if i < 0 {
			return fmt.Sprintf("the lock allows it only with %s", constraintText(wcn))
		}
		for _, v := range have.Constraints[i].Values {
			if !within(wcn, v) {
				return fmt.Sprintf("the lock allows it only with %s", constraintText(wcn))
			}
		}
	}
	if want.Pin != "" && have.Pin != want.Pin {
		return "the lock allows only the definition it pins, and this one differs; classify it ask or block, or have the lock updated"
	}
	return ""
}

// within reports whether value v of a constraint is inside c.
func within(c Constraint, v string) bool {
	if c.Kind != "under" {
		return slices.Contains(c.Values, v)
	}
	v = path.Clean(v)
	for _, w := range c.Values {
		w = path.Clean(w)
		if v == w || w == "/" && strings.HasPrefix(v, "/") || strings.HasPrefix(v, w+"/") {
			return true
		}
	}
	return false
}

// constraintText words c as 'vouch policy list' does: "path under /srv".
func constraintText(c Constraint) string {
	verb := " in "
	if c.Kind == "under" {
		verb = " under "
	}
	return c.Arg + verb + strings.Join(c.Values, ",")
}

// RuleText words a rule for drift lines: "allow (key in a,b)".
func RuleText(r Rule) string {
	if len(r.Constraints) == 0 {
		return r.Class
	}
	parts := make([]string, len(r.Constraints))
	for i, c := range r.Constraints {
		parts[i] = constraintText(c)
	}
	return r.Class + " (" + strings.Join(parts, "; ") + ")"
}
