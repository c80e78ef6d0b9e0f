package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// approvalLabelWidth is the width of the pane's field labels ("called as ").
const approvalLabelWidth = 10

// approvalCompactBelow is the height under which the pane takes its
// compact form (SPEC L6): the title, the tool, its server and host, any
// warning, the arguments folded, and the keys; the policy's reason, the
// effect and the wire name are left out.
const approvalCompactBelow = 14

// compact reports whether the pane is drawn in its compact form.
func (a Pane) compact() bool { return a.common.Height < approvalCompactBelow }

// approvalFooterLines is the height of the pane's footer: a blank line (or
// what became of a rule saved from the pane, or the settling notice) and
// the buttons (or the note input). The compact form leaves the blank line
// out, and so does a settled pane whose body does not fit: the line shows
// one more line of the call (issue 18 item 8).
const approvalFooterLines = 2

// footerLines is the footer's height in the pane's current form, under a
// header of headerLines lines.
func (a Pane) footerLines(headerLines int) int {
	if a.notice != "" {
		return approvalFooterLines
	}
	if a.compact() {
		return approvalFooterLines - 1
	}
	st := a.common.Styles.Modal
	full := a.common.Height - st.Frame.GetVerticalFrameSize() - headerLines - 1 - approvalFooterLines
	if !a.settling && !a.noting && len(a.body) > full {
		return approvalFooterLines - 1
	}
	return approvalFooterLines
}

// label is the button's word, as enter's help says it and, capitalised, as
// the button shows it.
func (b Button) label() string {
	switch b {
	case ButtonAllow:
		return "allow once"
	case ButtonNote:
		return "deny with note"
	}
	return "deny"
}

func (a Pane) boxWidth() int { return min(a.common.Width-4, 100) }

func (a Pane) innerWidth() int { return kit.InnerWidth(a.common.Styles.Modal, a.boxWidth()) }

// bodyRows is how many lines of the body (arguments and claims) show.
func (a Pane) bodyRows() int {
	if a.headerLen > 0 {
		return a.rowsFor(a.headerLen)
	}
	return a.rowsFor(len(a.header(a.innerWidth())))
}

// rowsFor is bodyRows for a header of headerLines lines, so View, which
// draws the header anyway, does not build it twice.
func (a Pane) rowsFor(headerLines int) int {
	st := a.common.Styles.Modal
	inner := a.common.Height - st.Frame.GetVerticalFrameSize()
	return max(inner-headerLines-1-a.footerLines(headerLines), 1)
}

// View implements Modal. Everything the call, the model or a server
// supplied is escaped or neutralised before it is drawn (SPEC D3).
func (a Pane) View() string {
	st := a.common.Styles.Modal
	w := a.innerWidth()
	var lines []string
	if len(a.hdr) > 0 && a.hdrW == w && a.hdrPos == a.pos && a.hdrTotal == a.total {
		lines = append(make([]string, 0, len(a.hdr)+16), a.hdr...)
	} else {
		lines = a.header(w)
	}

	hdrLines := len(lines)
	rows := a.rowsFor(hdrLines)
	end := min(a.scroll+rows, len(a.body))
	label := argumentsLabel
	if a.req.Preview != "" {
		label = "preview by vouch, then the arguments"
	}
	if a.compact() && !a.unfold {
		label = "arguments, folded"
		if hasDiff(a.body) {
			label = "change, folded" // a write's diff comes first (issue 28 item 6)
		}
	}
	where := ""
	if len(a.body) > rows {
		// Where the person is and how to see the rest (issue 18 item
		// 8); the scroll keys move the view only, they answer nothing.
		where = fmt.Sprintf("lines %d–%d of %d · ↑↓ pgdn", a.scroll+1, end, len(a.body))
	}
	lines = append(lines, apart(st.Label.Render(ansi.Truncate(label, w-ansi.StringWidth(where)-1, "…")), st.Detail.Render(where), w))
	for _, l := range a.body[a.scroll:end] {
		lines = append(lines, a.styleLine(l))
	}

	switch {
	case a.notice != "" && a.noticeErr:
		lines = append(lines, st.Error.Render(ansi.Truncate("✗ "+a.notice, w, "…")))
	case a.notice != "":
		lines = append(lines, st.StatusOK.Render(ansi.Truncate("✓ "+a.notice, w, "…")))
	case a.footerLines(hdrLines) < approvalFooterLines:
		// no blank line: compact, or the call's lines take it
	case a.settling:
		lines = append(lines, st.Detail.Render(ansi.Truncate(a.settle, w, "…")))
	default:
		lines = append(lines, "")
	}
	if a.noting {
		lines = append(lines, a.note.View())
	} else {
		lines = append(lines, a.buttons(w))
	}
	return kit.ModalBox(st, w, 0, lines)
}

// header is the pane's title and the facts about the call, each value
// wrapped under its label.
func (a Pane) header(w int) []string {
	st := a.common.Styles.Modal
	title := st.Title.Render("Tool call waiting for your approval")
	count := ""
	if a.total > 1 {
		count = fmt.Sprintf("%d of %d", a.pos, a.total)
	}
	lines := []string{apart(title, st.Detail.Render(count), w)}

	field := func(label, value string, style lipgloss.Style) {
		wrapped := strings.Split(ansi.Wrap(safetext.Line(value, 0), w-approvalLabelWidth, ""), "\n")
		for i, l := range wrapped {
			head := strings.Repeat(" ", approvalLabelWidth)
			if i == 0 {
				head = st.Label.Render(kit.Pad(label, approvalLabelWidth))
			}
			lines = append(lines, head+style.Render(l))
		}
	}
	field("tool", a.identity(), st.Group)
	if b := a.req.Background; b != nil {
		field("run", backgroundRun(b), st.Item)
	}
	field("server", a.serverLine(), st.Item)
	if a.compact() {
		a.warn(field)
		return lines
	}
	called := a.req.Call.WireName
	if called == "" {
		called = "(no name)"
	}
	field("called as", called+" · call ID "+a.req.Call.CorrelationID, st.Item)
	a.warn(field)
	field("policy", a.reason(), st.Item)
	field("effect", a.effect(), st.Item)
	return lines
}

// warn adds the warning line when the call maps to another tool than the
// one that would run; the compact form keeps it.
func (a Pane) warn(field func(label, value string, style lipgloss.Style)) {
	if c, t := a.req.Call.Identity, a.req.Tool.Identity; c != "" && t != "" && c != t {
		field("warning", "the call maps to "+c+", but the tool that would run is "+t, a.common.Styles.Modal.Error)
	}
	// A name with look-alike letters of another script (issue 14 item 7).
	if id := a.req.Tool.Identity; strings.HasPrefix(id, "mcp:") {
		if _, name, ok := strings.Cut(strings.TrimPrefix(id, "mcp:"), ":"); ok {
			if w := safetext.MixedScripts(name); w != "" {
				field("warning", "the tool name "+w, a.common.Styles.Modal.Error)
			}
		}
	}
}

// serverLine says where the tool comes from: vouch itself, or the server's
// label and endpoint host from the local catalog when the Backend can say.
func (a Pane) serverLine() string {
	if a.builtin() {
		return "built into vouch; runs on this machine"
	}
	id := ""
	if parts := strings.SplitN(a.identity(), ":", 3); len(parts) == 3 && parts[0] == "mcp" {
		id = parts[1]
	}
	switch {
	case a.looking:
		return "looking it up…"
	case a.descErr != "":
		return "unknown (" + id + "): " + a.descErr
	case a.desc.ServerName != "" || a.desc.ServerHost != "":
		parts := make([]string, 0, 2)
		for _, s := range []string{a.desc.ServerName, a.desc.ServerHost} {
			if s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " · ")
	case id != "":
		return "id " + id + " (no label known)"
	}
	return "unknown"
}

// reason is the local classification and why it asks, in the policy's
// own words (SPEC D1). Every call that reaches the pane is in the "ask"
// class for this call; nothing a server claims changes that (SPEC D2).
// Without the policy's reason, the pane says why itself.
func (a Pane) reason() string {
	if why := strings.TrimSpace(a.req.Reason); why != "" {
		return "ask — " + why
	}
	if a.builtin() {
		return "ask — this built-in tool asks before every call until you classify it"
	}
	return "ask — every new external tool asks until you classify it"
}

// effect is the effect the person reviewed for the tool; unknown counts as
// mutating (SPEC D1).
func (a Pane) effect() string {
	if e := strings.TrimSpace(a.req.Effect); e != "" {
		return e
	}
	return "mutating (not reviewed; unknown counts as mutating)"
}

// argumentsLabel names the arguments above or inside the body.
const argumentsLabel = "arguments (JSON; keys in the model's order)"

// bodyLines is the scrolling part of the pane: the tool's preview if it
// gave one, every argument, then what the server claims about the tool.
func (a Pane) bodyLines(w int) []argLine {
	var lines []argLine
	if a.req.Preview != "" {
		lines = layoutPreview(a.req.Preview, w, a.unfold, a.keys.View.Help().Key)
		lines = append(lines, argLine{}, argLine{text: argumentsLabel, kind: lineSection})
	}
	lines = append(lines, a.args.layout(w, a.unfold, a.keys.View.Help().Key)...)
	var claims []string
	if a.desc.Title != "" {
		claims = append(claims, "title: "+a.desc.Title)
	}
	claims = append(claims, a.desc.Claims...)
	if len(claims) == 0 {
		return lines
	}
	lines = append(lines, argLine{}, argLine{text: "server claims (unverified; never a reason to allow):", kind: lineClaim})
	for _, c := range claims {
		for _, l := range strings.Split(ansi.Wrap(safetext.Line(c, 0), w-4, ""), "\n") {
			lines = append(lines, argLine{text: "  " + l, kind: lineClaim})
		}
	}
	return lines
}

// styleLine styles one body line. In JSON, every escape stands out, so
// that "\u202e" or "\u001b" cannot pass for ordinary text.
func (a Pane) styleLine(l argLine) string {
	st := a.common.Styles.Modal
	switch l.kind {
	case lineMarker:
		return st.Detail.Render(l.text)
	case lineNote:
		return st.StatusWarn.Render(l.text)
	case lineClaim:
		return st.Claim.Render(l.text)
	case lineJSON:
		// Styled below: escapes stand out.
	default:
		return a.styleDiffLine(l)
	}
	text := l.text
	if strings.IndexByte(text, '\\') < 0 {
		return st.Item.Render(text)
	}
	var b strings.Builder
	for text != "" {
		i := strings.IndexByte(text, '\\')
		if i < 0 {
			b.WriteString(st.Item.Render(text))
			break
		}
		if i > 0 {
			b.WriteString(st.Item.Render(text[:i]))
		}
		n := 2
		if i+1 < len(text) && text[i+1] == 'u' {
			n = 6
		}
		n = min(n, len(text)-i)
		b.WriteString(st.StatusWarn.Render(text[i : i+n]))
		text = text[i+n:]
	}
	return b.String()
}

// buttons is the row of buttons, the focused one bracketed so that it
// reads without colour, and the classify key when it acts.
func (a Pane) buttons(w int) string {
	st := a.common.Styles.Modal
	if a.settling {
		return a.settlingButtons(w)
	}
	var row string
	for b := range buttonCount {
		label := strings.ToUpper(b.label()[:1]) + b.label()[1:]
		if b == a.focus {
			row += st.FocusedButton.Render("[ " + label + " ]")
		} else {
			row += st.Button.Render("  " + label + "  ")
		}
	}
	c := a.keys.Classify.Help()
	later := c.Key + " " + c.Desc
	if !a.keys.Classify.Enabled() {
		later = "(classify: not available here)"
	}
	if ansi.StringWidth(row)+1+ansi.StringWidth(later) > w {
		return row
	}
	return apart(row, st.Detail.Render(later), w)
}

// settlingButtons is the row of buttons while the pane settles: the same
// words, dimmed (SPEC D7).
func (a Pane) settlingButtons(w int) string {
	st := a.common.Styles.Modal
	var row string
	for b := range buttonCount {
		label := strings.ToUpper(b.label()[:1]) + b.label()[1:]
		if b == a.focus {
			row += "[ " + label + " ]"
		} else {
			row += "  " + label + "  "
		}
	}
	c := a.keys.Classify.Help()
	later := c.Key + " " + c.Desc
	if !a.keys.Classify.Enabled() {
		later = "(classify: not available here)"
	}
	if a.compact() {
		later = a.settle
	}
	if ansi.StringWidth(row)+1+ansi.StringWidth(later) > w {
		if a.compact() {
			return st.Detail.Render(ansi.Truncate(a.settle, w, "…"))
		}
		return st.Detail.Render(row)
	}
	return apart(st.Detail.Render(row), st.Detail.Render(later), w)
}

// compactBody is the body of the compact form with the arguments folded:
// the outer braces of the arguments are left out, so that the few rows
// there are show arguments; every other line, vouch's fold markers and
// notes included, is as in the full form. v unfolds the full layout.
func compactBody(body []argLine) []argLine {
	body = compactDiff(body)
	first, last := -1, -1
	for i, l := range body {
		if l.kind != lineJSON {
			continue
		}
		if first < 0 && l.text == "{" {
			first = i
		}
		if l.text == "}" {
			last = i
		}
	}
	if first < 0 || last <= first {
		return body
	}
	out := make([]argLine, 0, len(body))
	for i, l := range body {
		if i != first && i != last {
			out = append(out, l)
		}
	}
	return out
}

// compactDiff makes a write's diff start with what changes, for the few
// rows of a compact pane (issue 28 item 6): the file's "+++" line, then
// the diff from its first added or removed line — the "---" line, the
// first hunk's header and the context before the first change go.
func compactDiff(body []argLine) []argLine {
	change := -1
	for i, l := range body {
		if l.kind == lineDiffAdd || l.kind == lineDiffDel {
			change = i
			break
		}
	}
	if change < 0 {
		return body
	}
	out := make([]argLine, 0, len(body))
	for _, l := range body[:change] {
		switch {
		case l.kind == lineDiffHeader && strings.HasPrefix(l.text, "+++ "):
			out = append(out, l)
		case l.kind == lineDiffHeader, l.kind == lineDiffHunk, l.kind == lineDiffContext:
		default:
			out = append(out, l)
		}
	}
	return append(out, body[change:]...)
}

// hasDiff reports whether the body shows a diff.
func hasDiff(body []argLine) bool {
	for _, l := range body {
		if l.kind == lineDiffAdd || l.kind == lineDiffDel {
			return true
		}
	}
	return false
}

// apart puts left and right on one line of width cells, apart.
func apart(left, right string, width int) string {
	if right == "" {
		return left
	}
	gap := max(width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	return left + strings.Repeat(" ", gap) + right
}

// backgroundRun names an inbox item's run: "background run ID of profile P".
func backgroundRun(b *Background) string {
	run := "background run " + safetext.Line(b.ID, 40)
	if b.Profile != "" {
		run += " of profile " + safetext.Line(b.Profile, 40)
	}
	return run
}
