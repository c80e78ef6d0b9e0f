package approval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tool"
	"vouch/tui/kit"
)

// maxElicitMessageLines bounds the server's message on screen.
const maxElicitMessageLines = 8

func (p ElicitPane) boxWidth() int { return min(p.common.Width-4, 100) }

func (p ElicitPane) innerWidth() int { return kit.InnerWidth(p.common.Styles.Modal, p.boxWidth()) }

// serverLine is the server's label and host, neutralised.
func (p ElicitPane) serverLine() string {
	q := p.req.Question
	s := safetext.Line(q.Server, 40)
	if q.Host != "" {
		s += " (" + safetext.Line(q.Host, 60) + ")"
	}
	return s
}

// View implements kit.Modal: who asks, the message, the fields (or the
// URL), and the keys or what the pane says instead (SPEC B12, D7).
func (p ElicitPane) View() string {
	st := p.common.Styles.Modal
	w := p.innerWidth()
	q := p.req.Question
	title := "A server asks you"
	if q.IsURL() {
		title = "A server asks you to visit a page"
	}
	lines := []string{st.Title.Render(title),
		st.Label.Render("from ") + st.Item.Render(p.serverLine()) + st.Detail.Render(" · tool "+safetext.Line(q.Tool, 40))}
	if b := p.req.Background; b != nil {
		lines = append(lines, st.Label.Render("run  ")+st.Item.Render(ansi.Truncate(backgroundRun(b), w-5, "…")))
	}
	lines = append(lines, kit.WrapLines(st.Claim, "“"+q.Message+"”", w, maxElicitMessageLines)...)
	lines = append(lines, "")
	if q.IsURL() {
		lines = append(lines, p.urlLines(w)...)
	} else {
		if q.AsksSecret() {
			lines = append(lines, st.StatusWarn.Render(ansi.Truncate("⚠ A field asks for a secret: "+SecretWarning+".", w, "…")))
		}
		for i := range p.fields {
			lines = append(lines, p.fieldLines(i, w)...)
		}
	}
	if p.notice != "" {
		lines = append(lines, st.Detail.Render(ansi.Truncate(p.notice, w, "…")))
	}
	lines = append(lines, p.footer(w))
	inner := p.common.Height - st.Frame.GetVerticalFrameSize()
	if len(lines) > inner && inner > 0 {
		lines = p.clip(lines, inner)
	}
	return kit.ModalBox(st, w, 0, lines)
}

// clip keeps the header, the lines around the focused field and the
// footer when the pane is taller than the screen.
func (p ElicitPane) clip(lines []string, rows int) []string {
	footer := lines[len(lines)-1]
	body := lines[:len(lines)-1]
	start := 0
	if p.focus > len(p.fields)/2 {
		start = max(len(body)-(rows-1), 0)
	}
	end := min(start+rows-1, len(body))
	return append(append([]string{}, body[start:end]...), footer)
}

// urlLines are the URL whole, escaped and wrapped, and its host
// emphasised.
func (p ElicitPane) urlLines(w int) []string {
	st := p.common.Styles.Modal
	q := p.req.Question
	url := safetext.Line(q.URL, 0)
	var out []string
	out = append(out, st.Label.Render("The page is on ")+st.StatusWarn.Render(hostOf(url)))
	for len(url) > 0 {
		n := min(len(url), w)
		out = append(out, st.Item.Render(url[:n]))
		url = url[n:]
	}
	out = append(out, st.Detail.Render("vouch opens nothing by itself and fetched nothing from this address."))
	return out
}

// hostOf is the host of an escaped http(s) URL.
func hostOf(u string) string {
	rest := u[strings.Index(u, "://")+3:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return rest
}

// fieldLines are one field: its title, type and required mark; its
// description; its input; what is wrong with it.
func (p ElicitPane) fieldLines(i, w int) []string {
	st := p.common.Styles.Modal
	ef := p.fields[i]
	f := ef.f
	label := st.Label
	mark := "  "
	if i == p.focus {
		label, mark = st.FocusedLabel, "› "
	}
	head := mark + safetext.Line(f.Label(), 60)
	if f.Required {
		head += " *"
	}
	out := []string{label.Render(head) + st.Detail.Render(" ("+kindWord(f)+")")}
	if f.Description != "" {
		for _, l := range kit.WrapLines(st.Detail, f.Description, w-4, 2) {
			out = append(out, "    "+l)
		}
	}
	if f.Secret {
		out = append(out, st.StatusWarn.Render("    ⚠ "+SecretWarning))
	}
	switch f.Kind {
	case tool.KindBoolean:
		box := "[ ]"
		if ef.on {
			box = "[x]"
		}
		out = append(out, st.Item.Render("    "+box+" yes"))
	case tool.KindEnum, tool.KindMulti:
		for j, o := range f.Options {
			on := ef.pick == j
			if f.Kind == tool.KindMulti {
				on = ef.chosen[j]
			}
			box := "( )"
			if f.Kind == tool.KindMulti {
				box = "[ ]"
			}
			if on {
				box = box[:1] + "x" + box[2:]
			}
			cur := "    "
			style := st.Item
			if i == p.focus && j == ef.cursor {
				cur, style = "  › ", st.Selected
			}
			out = append(out, style.Render(ansi.Truncate(cur+box+" "+safetext.Line(o.Label, 0), w, "…")))
		}
	default:
		out = append(out, "    "+ef.in.View())
	}
	if ef.err != "" {
		out = append(out, st.Error.Render(ansi.Truncate("    "+ef.err, w, "…")))
	}
	return out
}

// kindWord names a field's type and bounds.
func kindWord(f tool.Field) string {
	w := string(f.Kind)
	num := func(v *float64) string { return strconv.FormatFloat(*v, 'g', -1, 64) }
	switch {
	case f.Min != nil && f.Max != nil:
		w += fmt.Sprintf(", %s to %s", num(f.Min), num(f.Max))
	case f.Min != nil:
		w += ", at least " + num(f.Min)
	case f.Max != nil:
		w += ", at most " + num(f.Max)
	}
	if f.MaxLength > 0 {
		w += fmt.Sprintf(", up to %d characters", f.MaxLength)
	}
	switch f.Kind {
	case tool.KindEnum:
		w = "pick one"
	case tool.KindMulti:
		w = "pick any"
		if f.MinItems > 0 || f.MaxItems > 0 {
			w += fmt.Sprintf(", %d to %s", f.MinItems, map[bool]string{true: strconv.Itoa(f.MaxItems), false: "all"}[f.MaxItems > 0])
		}
	}
	return w
}

// footer is the Decline button and the keys, or, while the root holds the
// pane's keys back, what the pane says instead (SPEC D7).
func (p ElicitPane) footer(w int) string {
	st := p.common.Styles.Modal
	if p.settling {
		return st.Detail.Render(ansi.Truncate(p.settle, w, "…"))
	}
	if p.req.Question.IsURL() {
		return st.Detail.Render(ansi.Truncate("enter I'm done · c copy the URL · o open (VOUCH_BROWSER) · esc cancel", w, "…"))
	}
	button := st.Button.Render("  Decline  ")
	if p.focus == len(p.fields) {
		button = st.FocusedButton.Render("[ Decline ]")
	}
	return apart(button, st.Detail.Render("ctrl+s send · tab next · esc cancel"), w)
}
