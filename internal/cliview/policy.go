package cliview

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/policy"
	"vouch/safetext"
)

// PolicyList is `vouch policy list`: the rules, then the latest decisions.
// A tool reads "server › tool" (issue 18 item 9), and a rule ends with the
// identity 'vouch policy set' and 'remove' take (SPEC D1, D8, M).
func PolicyList(l app.PolicyListing, labels app.ToolLabels) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	if len(l.Rules) == 0 {
		p("no rules: built-in reads run inside the workspace, anything that writes asks, every external tool asks\n")
	} else {
		p("TOOL\tCLASS\tEFFECT\tCONSTRAINTS\tNOTE\tIDENTITY\n")
		for _, r := range l.Rules {
			p("%s\t%s\t%s\t%s\t%s\t%s\n", safetext.Line(labels.Tool(r.Identity), 60), safetext.Line(string(r.Class), 10),
				safetext.Line(string(r.Effect), 12), safetext.Line(Constraints(r.Constraints), 60), cmp.Or(safetext.Line(r.Note, 40), "-"),
				safetext.Line(r.Identity, 70))
			if r.Problem != "" {
				p("\t%s\n", safetext.Line("invalid, so it never allows: "+r.Problem, 100))
			}
			if r.Changed {
				p("\t%s\n", policy.MarkChanged+": the rule does not apply until you classify it again ('vouch tools' shows it)")
			}
		}
	}
	p("\n")
	if len(l.Decisions) == 0 {
		p("no decisions yet\n")
	} else {
		p("TIME\tOUTCOME\tBY\tTOOL\tCORRELATION ID\n")
		for _, d := range l.Decisions {
			p("%s\t%s\t%s\t%s\t%s\n", d.At.Local().Format(time.DateTime), safetext.Line(string(d.Outcome), 14),
				safetext.Line(d.By, 20), safetext.Line(labels.Tool(d.Identity), 60), safetext.Line(d.CorrelationID, 40))
		}
	}
	return clitext.Align(b.String())
}

// Constraints words a rule's constraints: "path under /srv; mode in fast,
// safe", or "-" for none.
func Constraints(cs []policy.Constraint) string {
	if len(cs) == 0 {
		return "-"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		verb := " in "
		if c.Kind == policy.Under {
			verb = " under "
		}
		parts[i] = c.Arg + verb + strings.Join(c.Values, ", ")
	}
	return strings.Join(parts, "; ")
}

// RuleSet is the sentence of `vouch policy set`: the rule's summary, its
// effect, and whether it is pinned to the tool's definition.
func RuleSet(identity, summary string, rule policy.Rule) string {
	pinned := ""
	if rule.Pin != nil {
		pinned = ", pinned to its definition as served now"
	}
	return fmt.Sprintf("%s: %s, effect %s%s\n", safetext.Line(identity, 0), safetext.Line(summary, 0), rule.Effect, pinned)
}
