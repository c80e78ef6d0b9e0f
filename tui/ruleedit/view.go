package ruleedit

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/policy"
	"vouch/safetext"
	"vouch/tui/kit"
)

// Layout of the rule editor, in cells.
const (
	ruleLabelWidth = 10 // "› effect  "
	ruleArgWidth   = 12 // a constraint's argument name
	ruleKindWidth  = 8  // "◂one-of▸"
	// constraintValueColumn is where a constraint's values start: the
	// cursor, the switch, the argument and the kind.
	constraintValueColumn = 2 + 3 + 1 + ruleArgWidth + 1 + ruleKindWidth + 1
)

// The editor's one line about when a rule takes effect (SPEC D6).
const (
	appliesFromCall = "Applies to new runs; this call still needs your answer."
	appliesFromList = "Applies to runs that start after you save."
)

func (e Editor) boxWidth() int { return min(e.common.Width-4, 76) }

func (e Editor) innerWidth() int { return kit.InnerWidth(e.common.Styles.Modal, e.boxWidth()) }

// classHint says what a class does, beside the class options.
func classHint(c policy.Class) string {
	switch c {
	case policy.Allow:
		return "runs unasked within the constraints"
	case policy.Block:
		return "never runs; the model is told"
	}
	return "waits for your answer on every call"
}

// classHint is classHint for the editor's tool: one that no rule may allow
// says why allow is not among the choices.
func (e Editor) classHint(c policy.Class) string {
	if c == policy.Ask && !policy.CanAllow(e.draft.identity) {
		return "anything that writes asks: no allow"
	}
	return classHint(c)
}

// effectHint says what an effect means, beside the effect options.
func effectHint(e policy.Effect) string {
	switch e {
	case policy.ReadOnly:
		return "changes nothing"
	case policy.Idempotent:
		return "safe to repeat"
	}
	return "changes things"
}

// View implements kit.Modal. The identity, argument names and every value are
// neutralised before they are drawn. When the whole form does not fit the
// height it was given (a 60x16 terminal leaves a modal 9 rows), it takes a
// compact form that keeps every field and the line about when the rule
// applies, and drops the spacing and the constraints' explanations (SPEC
// L6: nothing the person needs is cut off).
func (e Editor) View() string {
	st := e.common.Styles.Modal
	w := e.innerWidth()
	title := "Classify this tool"
	if !e.draft.fromCall {
		title = "Edit the rule"
	}
	lines := []string{st.Title.Render(title), ""}
	if e.settling {
		lines[1] = st.Detail.Render(ansi.Truncate(e.settle, w, "…"))
	}
	tool := strings.Split(ansi.Wrap(safetext.Line(e.draft.identity, 0), w-ruleLabelWidth, ""), "\n")
	for i, l := range tool {
		head := strings.Repeat(" ", ruleLabelWidth)
		if i == 0 {
			head = st.Label.Render(kit.Pad("  tool", ruleLabelWidth))
		}
		lines = append(lines, head+st.Group.Render(l))
	}
	class, effect := e.draft.classes()[e.class], ruleEffects()[e.effect]
	options := []string{
		e.optionRow(ruleFieldClass, "class", classNames(e.draft.classes()), e.class, e.classHint(class), w),
		e.optionRow(ruleFieldEffect, "effect", effectNames(), e.effect, effectHint(effect), w),
	}
	lines = append(lines, options...)
	lines = append(lines, "")

	footer := []string{st.Detail.Render(appliesFromList)}
	if e.draft.fromCall {
		footer[0] = st.Detail.Render(appliesFromCall)
	}
	switch {
	case e.saving:
		footer = append(footer, st.Detail.Render("Saving…"))
	case e.err != "":
		footer = append(footer, kit.WrapLines(st.Error, "✗ "+e.err, w, 3)...)
	}
	note := e.label("note", e.focus == e.noteField()) + e.note.View()
	// What is left for the constraints: the frame, the lines above, the
	// constraints' title, a blank, the note, a blank and the footer.
	height := e.common.Height - st.Frame.GetVerticalFrameSize()
	rows := height - len(lines) - 4 - len(footer)
	cons := e.constraintLines(max(rows, 1), w)
	if e.common.Height > 0 && len(lines)+len(cons)+3+len(footer) > height {
		return kit.ModalBox(st, w, 0, e.compact(title, options, note, footer, height, w))
	}
	lines = append(lines, cons...)
	lines = append(lines, "", note, "")
	lines = append(lines, footer...)
	return kit.ModalBox(st, w, 0, lines)
}

// compact is the form in height lines: the title with the settle notice,
// the tool on one line, the options, as many constraints as fit (at least
// one), the note and, last, what went wrong or else when the rule applies.
func (e Editor) compact(title string, options []string, note string, footer []string, height, w int) []string {
	st := e.common.Styles.Modal
	head := st.Title.Render(title)
	if e.settling {
		head += st.Detail.Render(" · " + e.settle)
	}
	lines := []string{ansi.Truncate(head, w, "…"),
		st.Label.Render(kit.Pad("  tool", ruleLabelWidth)) + st.Group.Render(middleCut(safetext.Line(e.draft.identity, 0), w-ruleLabelWidth))}
	lines = append(lines, options...)
	last := footer[len(footer)-1:] // the error or "Saving…" when there is one
	if len(footer) > 1 {
		last = []string{ansi.Truncate(strings.Join(footer[1:], " "), w, "…")}
	}
	rows := max(height-len(lines)-1-len(last), 1)
	if len(e.cons) == 0 {
		lines = append(lines, st.Label.Render("  constraints: none"))
	} else {
		shown, first := e.constraintWindow(rows)
		for i := first; i < first+shown; i++ {
			lines = append(lines, e.constraintRow(i))
		}
	}
	return append(append(lines, note), last...)
}

// middleCut is s in width cells, its middle cut when it is wider: an
// identity keeps its scheme and the tool's name at its end.
func middleCut(s string, width int) string {
	if ansi.StringWidth(s) <= width || width < 3 {
		return ansi.Truncate(s, width, "…")
	}
	tail := (width - 1) / 2
	head := width - 1 - tail
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, ansi.StringWidth(s)-tail, "")
}

func classNames(cs []policy.Class) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

func effectNames() []string {
	es := ruleEffects()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = string(e)
	}
	return out
}

// label is a field's label, marked when the field has the cursor.
func (e Editor) label(text string, focused bool) string {
	st := e.common.Styles.Modal
	if focused {
		return st.FocusedLabel.Render("› " + kit.Pad(text, ruleLabelWidth-2))
	}
	return st.Label.Render("  " + kit.Pad(text, ruleLabelWidth-2))
}

// optionRow is an option field: every option, the chosen one bracketed so
// that it reads without colour, and a hint when it fits.
func (e Editor) optionRow(field int, name string, opts []string, chosen int, hint string, w int) string {
	st := e.common.Styles.Modal
	focused := e.focus == field
	parts := make([]string, len(opts))
	for i, o := range opts {
		switch {
		case i == chosen && focused:
			parts[i] = st.Selected.Render("[" + o + "]")
		case i == chosen:
			parts[i] = st.Item.Render("[" + o + "]")
		default:
			parts[i] = st.Detail.Render(" " + o + " ")
		}
	}
	row := e.label(name, focused) + strings.Join(parts, " ")
	if ansi.StringWidth(row)+3+len(hint) <= w {
		row += "   " + st.Detail.Render(hint)
	}
	return row
}

// constraintLines is the constraints' title and as many constraints as fit
// in rows lines, keeping the one with the cursor in view.
func (e Editor) constraintLines(rows, w int) []string {
	st := e.common.Styles.Modal
	if len(e.cons) == 0 {
		none := "  constraints: none"
		if e.draft.fromCall {
			none += " offered (the call has no plain text argument)"
		}
		return []string{st.Label.Render(none)}
	}
	out := []string{st.Label.Render("  constraints") + st.Detail.Render(" — only for allow; a call outside those on asks")}
	shown, first := len(e.cons), 0
	if shown > rows {
		shown, first = e.constraintWindow(rows - 1)
	}
	for i := first; i < first+shown; i++ {
		out = append(out, e.constraintRow(i))
	}
	if shown < len(e.cons) {
		out = append(out, st.Detail.Render(ansi.Truncate(
			fmt.Sprintf("  %d–%d of %d constraints; tab moves through them", first+1, first+shown, len(e.cons)), w, "…")))
	}
	return out
}

// constraintWindow is which rows constraints show (at least one): how
// many and the first, keeping the one with the cursor in view.
func (e Editor) constraintWindow(rows int) (shown, first int) {
	shown = min(max(rows, 1), len(e.cons))
	at := 0
	if i, _, ok := e.constraintAt(e.focus); ok {
		at = i
	} else if e.focus > ruleFieldEffect {
		at = len(e.cons) - 1
	}
	return shown, min(max(at-shown+1, 0), len(e.cons)-shown)
}

// constraintRow is one constraint: its switch, argument, kind and values.
func (e Editor) constraintRow(i int) string {
	st := e.common.Styles.Modal
	c := e.cons[i]
	at, values, ok := e.constraintAt(e.focus)
	here := ok && at == i
	onSwitch := here && !values

	cursor := "  "
	if here {
		cursor = st.FocusedLabel.Render("› ")
	}
	box := "[ ]"
	if c.on {
		box = "[x]"
	}
	kind := " " + safetext.Line(c.kind, ruleKindWidth-2) + " "
	if onSwitch {
		kind = "◂" + safetext.Line(c.kind, ruleKindWidth-2) + "▸"
	}
	head := box + " " + kit.Pad(safetext.Line(c.arg, ruleArgWidth), ruleArgWidth) + " " + kit.Pad(kind, ruleKindWidth) + " "
	switch {
	case onSwitch:
		head = st.FocusedLabel.Render(head)
	case c.on:
		head = st.Item.Render(head)
	default:
		head = st.Detail.Render(head)
	}
	return cursor + head + c.values.View()
}
