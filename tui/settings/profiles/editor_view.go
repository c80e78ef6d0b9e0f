package profiles

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// skillRows is how many skills the editor shows at once.
const skillRows = 3

// View implements Modal. The field under the cursor has a marked label, so
// the form reads without colour; the field an error is about is marked
// "✗".
func (e Editor) View() string {
	st := e.common.Styles.Modal
	inner := kit.InnerWidth(st, e.boxWidth())
	title := "New profile"
	if e.name != "" {
		title = "Edit profile " + safetext.Line(e.name, inner-20)
		if e.revision > 0 {
			title += fmt.Sprintf(" (revision %d)", e.revision)
		}
	}
	lines := []string{st.Title.Render(title)}
	if e.profiles == nil {
		lines = append(lines, "", st.Detail.Render("Agent Profiles are not available here."))
		return kit.ModalBox(st, inner, 0, lines)
	}
	for i := range FieldCount {
		lines = append(lines, e.fieldLines(i, inner)...)
	}
	lines = append(lines, "")
	switch {
	case !e.loaded && e.err == "":
		lines = append(lines, st.Detail.Render("Loading…"))
	case e.saving:
		lines = append(lines, st.Detail.Render("Saving…"))
	case e.err != "":
		lines = append(lines, kit.WrapLines(st.Error, "✗ "+e.err, inner, 2)...)
	default:
		lines = append(lines, kit.WrapLines(st.Detail, "Saving makes a new revision; runs already started keep theirs. "+
			"Tools are chosen with t on the list.", inner, 2)...)
	}
	return kit.ModalBox(st, inner, 0, lines)
}

// label renders field i's label column.
func (e Editor) label(i int) string {
	st := e.common.Styles.Modal
	mark := "  "
	if i == e.errField {
		mark = "✗ "
	}
	if i == e.focus {
		return st.FocusedLabel.Render("› " + kit.Pad(profileFieldLabels[i], labelWidth-2))
	}
	return st.Label.Render(mark + kit.Pad(profileFieldLabels[i], labelWidth-2))
}

// fieldLines renders field i: one line, or the skills list.
func (e Editor) fieldLines(i, inner int) []string {
	st := e.common.Styles.Modal
	w := inner - labelWidth - 1
	switch i {
	case FieldName:
		if e.name != "" {
			return []string{e.label(i) + " " + st.Item.Render(safetext.Line(e.name, w))}
		}
	case FieldDefinition:
		return []string{e.label(i) + " " + e.defText(w)}
	case FieldSkills:
		return e.skillLines(w)
	}
	return []string{e.label(i) + " " + e.inputs[i].View()}
}

// defText is the chosen definition between arrows.
func (e Editor) defText(w int) string {
	st := e.common.Styles.Modal
	if !e.loaded {
		return ""
	}
	if len(e.defs) == 0 {
		return st.Detail.Render("no definition yet")
	}
	if e.def < 0 {
		return st.Detail.Render(fmt.Sprintf("‹ choose one of %d ›", len(e.defs)))
	}
	d := e.defs[e.def]
	about := safetext.Line(d.Kind, 10)
	if d.Revision > 0 {
		about += fmt.Sprintf(", rev %d", d.Revision)
	}
	if d.EditedByPerson {
		about += ", edited"
	}
	text := "‹ " + safetext.Line(d.Name, w/2) + " ›"
	if e.focus == FieldDefinition {
		text = st.Selected.Render(text)
	} else {
		text = st.Item.Render(text)
	}
	rest := about
	if desc := kit.FirstLine(d.Description, 0); desc != "" {
		rest += " — " + desc
	}
	return text + " " + st.Detail.Render(safetext.Line(rest, max(w-ansi.StringWidth(text)-1, 1)))
}

// skillLines renders the skills list: up to skillRows rows around the
// cursor, each with its switch, its place in the prompt order when on,
// name, version and description.
func (e Editor) skillLines(w int) []string {
	st := e.common.Styles.Modal
	if len(e.skills) == 0 {
		text := ""
		if e.loaded {
			text = "none installed"
		}
		return []string{e.label(FieldSkills) + " " + st.Detail.Render(text)}
	}
	first := max(0, min(e.skill-skillRows/2, len(e.skills)-skillRows))
	last := min(first+skillRows, len(e.skills))
	order := 0
	for _, s := range e.skills[:first] {
		if s.Enabled {
			order++
		}
	}
	var lines []string
	for n := first; n < last; n++ {
		s := e.skills[n]
		lead := kit.Pad("", labelWidth)
		if n == first {
			lead = e.label(FieldSkills)
		}
		box, place := "[ ] ", "   "
		if s.Enabled {
			order++
			box, place = "[x] ", fmt.Sprintf("%d. ", order)
		}
		name := safetext.Line(s.Name, w/3)
		if n == e.skill && e.focus == FieldSkills {
			name = st.Selected.Render(name)
		} else {
			name = st.Item.Render(name)
		}
		about := safetext.Line(s.Version, 12)
		if s.Policy && s.Enabled {
			about = "policy · " + about
		}
		if s.Origin != "" {
			about = safetext.Line(s.Origin, 40) + " · " + about
		}
		if d := kit.FirstLine(s.Description, 0); d != "" {
			about += " — " + d
		}
		row := st.Item.Render(box+place) + name + " "
		lines = append(lines, lead+" "+row+st.Detail.Render(safetext.Line(about, max(w-ansi.StringWidth(row), 1))))
	}
	if more := len(e.skills) - last; more > 0 && len(lines) == skillRows {
		lines[len(lines)-1] += st.Detail.Render(fmt.Sprintf(" (+%d)", more))
	}
	return lines
}
