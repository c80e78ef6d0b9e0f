package agent

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"vouch/tool"
)

// Small windows (SPEC F5; issue 17 item 5). When the tools that must be
// sent in full do not fit the tool budget, a run is refused before
// inference (ErrToolBudget) — the person chose those tools, and the
// refusal says which to turn off. vouch's own workspace tools are not the
// person's choice, though: on a small window (512 tokens leaves a
// 128-token budget, less than the tool-search tools alone) they would
// refuse every "hello". So they are left out instead, the asking ones
// (fs_write, fs_edit) first and then the rest, and the run goes on with
// what fits, saying so in one line (Usage.ToolsNote). A selection of the
// person's own tools that does not fit is still refused.

// ownTools are vouch's workspace tools in the order they are left out:
// the asking write tools first, then the read tools.
func ownTools() []string {
	return []string{IdentityFSEdit, IdentityFSWrite, IdentityFSSearch, IdentityFSList, IdentityFSRead}
}

// planWithout re-plans in after a budget refusal without vouch's own
// tools, the asking ones first: it returns the first plan that fits and
// the identities left out, or ok false when leaving them all out does not
// help (the person's own tools do not fit, or there were none of vouch's).
func planWithout(in PlanInput, refused Plan) (p Plan, left []string, ok bool) {
	if !errors.Is(refused.Err, ErrToolBudget) {
		return refused, nil, false
	}
	own := ownTools()
	for _, n := range []int{2, len(own)} {
		drop := own[:n]
		kept := slices.DeleteFunc(slices.Clone(in.Tools), func(t tool.Tool) bool { return slices.Contains(drop, t.Def().Identity) })
		if len(kept) == len(in.Tools) {
			continue
		}
		in2 := in
		in2.Tools = kept
		p = PlanTools(in2)
		if p.Err == nil {
			for _, t := range in.Tools {
				if id := t.Def().Identity; slices.Contains(drop, id) {
					left = append(left, id)
				}
			}
			return p, left, true
		}
	}
	return refused, nil, false
}

// toolsNote is the one line saying which of vouch's tools a run left out.
func toolsNote(p Plan, left []string) string {
	names := make([]string, 0, len(left))
	for _, id := range left {
		names = append(names, strings.TrimPrefix(id, tool.BuiltinPrefix))
	}
	what := "vouch's file tools"
	if len(left) <= 2 {
		what = fmt.Sprintf("vouch's %s", joinAnd(names))
	}
	return fmt.Sprintf("%s were left out: they do not fit the %s-token window's tool budget (%s); a larger window brings them back",
		what, commas(p.Window), tokenCount(p.Budget))
}

// joinAnd joins names as "a and b" / "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " and " + names[len(names)-1]
}
