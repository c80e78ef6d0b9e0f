package policy

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	vpolicy "vouch/policy"
	"vouch/safetext"
	"vouch/tui/kit"
)

// Column widths of the Policy page; identities and constraints share the
// rest.
const (
	classColWidth   = 5  // "allow"
	effectColWidth  = 10 // "idempotent"
	agoColWidth     = 8  // "59m ago", "just now"
	outcomeColWidth = 14 // "✓ auto-allowed"
	byColWidth      = 14 // "policy default"
	callColWidth    = 9  // a correlation ID's first 8 characters and "…"
	// minToolColWidth is the least a decision's tool gets; below it the
	// correlation ID is left out.
	minToolColWidth = 12
	// shortPage is the fewest lines, footer aside, in which the rules and
	// the recent decisions both show.
	shortPage = 8
)

func (p Page) View() string {
	st := p.common.Styles.Modal
	w := p.Width
	if p.policy == nil {
		return st.Detail.Render("Policy is not available here.")
	}
	foot := p.footer(w, max(min(p.Height-3, 2), 1))
	if p.Loading && !p.Loaded {
		return strings.Join(append([]string{st.Detail.Render("Loading the policy…"), ""}, foot...), "\n")
	}
	decisions := p.decisionLines(w)
	blocks := p.ruleBlocks(w)
	need := 2
	for _, b := range blocks {
		need += len(b)
	}
	// The sections share what the footer and a blank line between them
	// leave; the rules, which the keys act on, get up to two thirds.
	avail := max(p.Height-len(foot)-1, 1)
	ruleRows := min(need, max(avail-len(decisions), avail*2/3, 3))
	if avail < shortPage {
		// Too short for both sections: the rules, which the keys act on.
		ruleRows = avail + 1
	}
	lines := p.ruleLines(blocks, ruleRows, w)
	lines = append(lines, "")
	if room := avail + 1 - len(lines); len(decisions) > room {
		// The oldest do not fit; say so on the last line.
		decisions = append(decisions[:max(room-1, 1)],
			kit.Cut(st.Detail.Render("  … older decisions do not fit; a taller terminal shows them"), w))
	}
	lines = append(lines, decisions...)
	for len(lines) < avail+1 {
		lines = append(lines, "")
	}
	// A page too short for both sections loses decisions, then rules,
	// never the footer, which says what the last action did (SPEC L6).
	lines = lines[:min(len(lines), max(p.Height-len(foot), 1))]
	return strings.Join(append(lines, foot...), "\n")
}

// footer is the last action's outcome, or a count of what is shown.
// An error takes at most maxLines lines.
func (p Page) footer(w, maxLines int) []string {
	st := p.common.Styles.Modal
	switch {
	case p.Err != "":
		return kit.WrapLines(st.Error, "✗ "+p.Err, w, maxLines)
	case p.Notice != "":
		return []string{st.Detail.Render(safetext.Line(p.Notice, w))}
	}
	s := fmt.Sprintf("%s · %s", kit.Plural(len(p.rules.Items), "rule"), kit.Plural(len(p.records), "recent decision"))
	if p.Loading {
		s += " · refreshing…"
	}
	return []string{st.Detail.Render(s)}
}

// ruleIDWidth is the width of the identity column of the rules.
func ruleIDWidth(w int) int { return max((w-2-classColWidth-effectColWidth-3)*11/20, 12) }

// ruleBlocks renders each rule: its row, and its details when selected.
func (p Page) ruleBlocks(w int) [][]string {
	st := p.common.Styles.Modal
	idW := ruleIDWidth(w)
	consW := max(w-2-idW-classColWidth-effectColWidth-3, 8)
	blocks := make([][]string, len(p.rules.Items))
	for i, r := range p.rules.Items {
		cursor, id := "  ", st.Item.Render(kit.Pad(p.toolName(r.Identity, idW), idW))
		if i == p.rules.Cursor {
			cursor = st.Prompt.Render("› ")
			id = kit.Pad(st.Selected.Render(p.toolName(r.Identity, idW)), idW)
		}
		row := cursor + id + " " + kit.Pad(classBadge(st, r.Class), classColWidth) + " " +
			st.Item.Render(kit.Pad(safetext.Line(string(r.Effect), effectColWidth), effectColWidth)) + " " +
			st.Detail.Render(safetext.Line(constraintSummary(r.Constraints), consW))
		blocks[i] = []string{row}
		if p.changed[r.Identity] {
			blocks[i] = append(blocks[i], st.StatusWarn.Render("    "+safetext.Line(
				"⚠ "+vpolicy.MarkChanged+": this rule does not apply; press "+p.keys.Edit.Help().Key+" to classify it again", w-4)))
		}
		if i == p.rules.Cursor {
			detail := []string{safetext.Line(r.Identity, 0)}
			if !r.Updated.IsZero() {
				detail = append(detail, "updated "+kit.Ago(p.common.Now(), r.Updated))
			}
			if r.Note != "" {
				detail = append(detail, "note: "+safetext.Line(r.Note, 0))
			}
			blocks[i] = append(blocks[i], st.Detail.Render("    "+safetext.Line(strings.Join(detail, " · "), w-4)))
		}
	}
	return blocks
}

// ruleLines is the rules section in at most rows lines: its title, the
// column titles and the rules, scrolled so that the selected one shows.
func (p Page) ruleLines(blocks [][]string, rows, w int) []string {
	st := p.common.Styles.Modal
	lines := []string{st.Group.Render("Rules")}
	switch {
	case p.rulesErr != "":
		return append(lines, kit.WrapLines(st.Error, "✗ "+p.rulesErr, w, 2)...)
	case len(p.rules.Items) == 0:
		return append(lines, kit.WrapLines(st.Detail,
			"No rules yet: every external tool asks. Classify one with c in its approval pane.", w, 3)...)
	}
	idW := ruleIDWidth(w)
	lines = append(lines, st.Detail.Render("  "+kit.Pad("Tool", idW)+" "+kit.Pad("Class", classColWidth)+" "+
		kit.Pad("Effect", effectColWidth)+" Constraints"))
	room := max(rows-2, 1)
	return append(lines, kit.ScrollBlocks(blocks, p.rules.Cursor, room)...)
}

// decisionLines is the recent decisions section, newest first: each
// decision's row, and the person's note under it when there is one.
func (p Page) decisionLines(w int) []string {
	st := p.common.Styles.Modal
	lines := []string{st.Group.Render("Recent decisions") + st.Detail.Render(" · newest first")}
	switch {
	case p.recordsErr != "":
		return append(lines, kit.WrapLines(st.Error, "✗ "+p.recordsErr, w, 2)...)
	case len(p.records) == 0:
		return append(lines, st.Detail.Render("No decisions recorded yet."))
	}
	// On a narrow page the correlation ID gives its column to the tool,
	// and what still does not fit is cut: no row is wider than the page.
	idW := w - 2 - agoColWidth - outcomeColWidth - byColWidth - callColWidth - 4
	showCall := idW >= minToolColWidth
	if !showCall {
		idW += callColWidth + 1
	}
	idW = max(idW, minToolColWidth)
	now := p.common.Now()
	for i := len(p.records) - 1; i >= 0; i-- {
		r := p.records[i]
		call := ""
		if showCall {
			call = st.Detail.Render(kit.Pad(safetext.Line(r.CorrelationID, callColWidth), callColWidth)) + " "
		}
		lines = append(lines, kit.Cut("  "+
			st.Detail.Render(kit.Pad(kit.Ago(now, r.At), agoColWidth))+" "+
			kit.Pad(outcomeBadge(st, r.Outcome), outcomeColWidth)+" "+
			st.Item.Render(kit.Pad(safetext.Line(r.By, byColWidth), byColWidth))+" "+
			call+st.Item.Render(p.toolName(r.Identity, idW)), w))
		if r.Note != "" {
			lines = append(lines, st.Detail.Render("    "+safetext.Line("note: "+r.Note, w-4)))
		}
	}
	return lines
}

// shortIdentity fits an identity in width cells, neutralised; a server's
// UUID is cut to its first eight characters so that the tool name shows:
// "mcp:3f2a9c1e…:read_file".
func shortIdentity(identity string, width int) string {
	s := safetext.Line(identity, 0)
	if parts := strings.SplitN(s, ":", 3); len(parts) == 3 && parts[0] == "mcp" && len([]rune(parts[1])) > 9 {
		s = "mcp:" + string([]rune(parts[1])[:8]) + "…:" + parts[2]
	}
	return safetext.Line(s, width)
}

// classBadge shows a class; allow and block stand out.
func classBadge(st kit.ModalStyles, c vpolicy.Class) string {
	var style lipgloss.Style
	switch c {
	case vpolicy.Allow:
		style = st.StatusWarn
	case vpolicy.Block:
		style = st.StatusBad
	default:
		style = st.Item
	}
	return style.Render(safetext.Line(string(c), classColWidth))
}

// outcomeBadge shows an outcome as a symbol and a word, so that it reads
// the same without colour (NO_COLOR).
func outcomeBadge(st kit.ModalStyles, o vpolicy.Outcome) string {
	var style lipgloss.Style
	var sym string
	switch o {
	case vpolicy.OutcomeAllowed, vpolicy.OutcomeAutoAllow:
		style, sym = st.StatusOK, "✓"
	case vpolicy.OutcomeDenied, vpolicy.OutcomeBlocked:
		style, sym = st.StatusBad, "✗"
	default:
		style, sym = st.StatusOff, "○"
	}
	return style.Render(sym + " " + safetext.Line(string(o), outcomeColWidth-2))
}
