package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// indent is the left margin of message bodies under their label.
const indent = "  "

// renderItem renders one transcript item into lines no wider than width.
// All item text is untrusted and passes through safetext first.
func renderItem(it *Item, width int, st *kit.Styles) []string {
	inner := max(width-len(indent), 10)
	var out []string
	switch it.Kind {
	case ItemUser:
		out = append(out, st.UserLabel.Render("You"))
		for _, l := range wrapPlain(safetext.Neutralize(it.Text), inner) {
			out = append(out, indented(st.Body.Render(l)))
		}
	case ItemAssistant:
		out = append(out, st.AssistantLabel.Render("Assistant"))
		var body []string
		if it.Streaming {
			body = it.stable.render(safetext.Neutralize(it.Text), inner, st)
		} else {
			body = renderMarkdown(safetext.Neutralize(it.Text), inner, st)
		}
		for _, l := range body {
			out = append(out, indented(l))
		}
	case ItemReasoning:
		out = append(out, renderReasoning(it, width, st))
	case ItemTool:
		out = append(out, renderTool(it, width, st)...)
	}
	if it.Interrupted {
		out = append(out, indent+st.Interrupted.Render("(interrupted)"))
	}
	if it.CutOff {
		out = append(out, indent+st.Interrupted.Render("(cut off at its length limit)"))
	}
	if it.Note != "" {
		out = append(out, indent+st.Interrupted.Render("("+it.Note+")"))
	}
	return out
}

// indented puts a body line under its label; blank lines stay empty.
func indented(l string) string {
	if l == "" {
		return ""
	}
	return indent + l
}

// renderReasoning shows a reasoning trace collapsed to one dimmed line: its
// size and its latest line, so progress is visible without the noise.
func renderReasoning(it *Item, width int, st *kit.Styles) string {
	text := safetext.Neutralize(it.Text)
	head := "∴ reasoning, " + kit.Plural(countWords(text), "word")
	if it.Streaming {
		last := strings.TrimSpace(text[strings.LastIndexByte(strings.TrimRight(text, "\n"), '\n')+1:])
		if last != "" {
			head += ": " + last
		}
	}
	return st.Reasoning.Render(safetext.Line(head, width))
}

// renderTool shows a tool call compactly: its identity and arguments on one
// line, then the result's size and first lines.
func renderTool(it *Item, width int, st *kit.Styles) []string {
	name := ToolName(it.Call)
	if it.label != "" {
		name = it.label // "demo tools › lookup" (labels.go)
	}
	mark, style := "⚙ ", st.ToolCall
	if it.HasResult && it.IsError {
		mark, style = "✗ ", st.ToolError
	}
	line := mark + safetext.Line(name, 0)
	if args := compactJSON(it.Call.Arguments); args != "" && args != "{}" {
		line += " " + args
	}
	out := []string{style.Render(safetext.Line(line, width))}

	inner := width - len(indent) - 2
	switch {
	case !it.HasResult && it.Streaming:
		running := "↳ running…"
		if it.Progress != "" {
			running += " " + it.Progress
		}
		out = append(out, indent+st.ToolResult.Render(safetext.Line(running, max(width-len(indent), 1))))
	case !it.HasResult:
	default:
		result := safetext.Neutralize(it.Result)
		lines := strings.Split(strings.TrimRight(result, "\n"), "\n")
		summary := fmt.Sprintf("↳ %s, %s", kit.ByteSize(len(it.Result)), kit.Plural(len(lines), "line"))
		if it.IsError {
			summary = "↳ error, " + strings.TrimPrefix(summary, "↳ ")
		}
		rs := st.ToolResult
		if it.IsError {
			rs = st.ToolError
		}
		out = append(out, indent+rs.Render(summary))
		for _, l := range lines[:min(len(lines), 2)] {
			if strings.TrimSpace(l) == "" {
				continue
			}
			out = append(out, indent+"  "+rs.Render(safetext.Line(l, inner)))
		}
	}
	return out
}

// compactJSON returns raw JSON on one line, or the raw text when it is not
// valid JSON (the model may produce anything).
func compactJSON(raw string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		return safetext.Line(raw, 0)
	}
	return safetext.Line(b.String(), 0)
}

// wrapPlain wraps neutralised text at width, keeping its line breaks.
func wrapPlain(text string, width int) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(ansi.Wrap(text, width, ""), "\n")
}

// countWords counts space-separated words without allocating.
func countWords(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		space := s[i] == ' ' || s[i] == '\n'
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

// stablePrefix caches the rendered lines of the settled part of a streaming
// answer: every line up to the last blank line outside a code fence. Text
// before such a line can no longer change how later lines render (the
// renderer carries no state across it), so each frame renders only the
// paragraph still being written. Without it, a 2,000-line answer re-renders
// in full at every frame.
type stablePrefix struct {
	width int
	src   string   // the neutralised text the lines were rendered from
	n     int      // how many source lines src holds
	lines []string // their rendering
}

// render returns renderMarkdown(streamingText(text), width, st), reusing
// and extending the cached prefix.
func (p *stablePrefix) render(text string, width int, st *kit.Styles) []string {
	text = streamingText(text)
	if text == "" {
		return nil
	}
	src := strings.Split(text, "\n")
	cut, off := settled(src)
	if p.width != width || len(p.src) > off || !strings.HasPrefix(text, p.src) {
		*p = stablePrefix{width: width}
	}
	if cut > p.n {
		p.lines = append(p.lines[:len(p.lines):len(p.lines)], renderLines(src[p.n:cut], width, st)...)
		p.n, p.src = cut, text[:off]
	}
	return append(p.lines[:len(p.lines):len(p.lines)], renderLines(src[p.n:], width, st)...)
}

// streamingText is the text of an answer still streaming as it is drawn:
// its last line with an open bold or code span closed (closeOpenSpans),
// unless that line is inside a code fence. Only the last line changes, so
// the settled prefix above it is the same either way.
func streamingText(text string) string {
	text = strings.TrimRight(text, "\n")
	i := strings.LastIndexByte(text, '\n') + 1
	if inFence(strings.Split(text, "\n")) {
		return text
	}
	return strings.TrimRight(text[:i]+closeOpenSpans(text[i:]), "\n")
}

// inFence reports whether lines end inside a code fence.
func inFence(lines []string) bool {
	in := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
		}
	}
	return in
}

// settled returns the index of the line after the last blank line outside a
// code fence (0 if none) and that line's byte offset in the joined text.
func settled(lines []string) (cut, off int) {
	inCode := false
	pos := 0
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			inCode = !inCode
		case trimmed == "" && !inCode && i+1 < len(lines):
			cut, off = i+1, pos+len(l)+1
		}
		pos += len(l) + 1
	}
	return cut, off
}

// renderMarkdown renders the Markdown that models commonly write — headings,
// bullets, numbered lists, quotes, rules, fenced code, **bold** and `code` —
// line by line, wrapped at width. It is deliberately small: it runs on every
// frame of a streaming answer, so it does no parsing beyond the line at hand.
func renderMarkdown(text string, width int, st *kit.Styles) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	return renderLines(strings.Split(text, "\n"), width, st)
}

// renderLines renders lines of Markdown that start outside a code fence.
func renderLines(lines []string, width int, st *kit.Styles) []string {
	var (
		out    []string
		inCode bool
	)
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if !inCode {
			if rows := tableAt(lines[i:]); rows > 0 { // a table (table.go)
				out = append(out, renderTable(lines[i:i+rows], width, st)...)
				i += rows - 1
				continue
			}
		}
		if fence, ok := strings.CutPrefix(trimmed, "```"); ok {
			if !inCode {
				label := strings.TrimSpace(fence)
				if label == "" {
					label = "code"
				}
				out = append(out, st.CodeFrame.Render(ansi.Truncate("╭─ "+label, width, "…")))
			} else {
				out = append(out, st.CodeFrame.Render("╰─"))
			}
			inCode = !inCode
			continue
		}
		if inCode {
			for _, l := range strings.Split(ansi.Hardwrap(line, max(width-2, 1), true), "\n") {
				out = append(out, st.CodeFrame.Render("│ ")+st.CodeBlock.Render(l))
			}
			continue
		}
		out = append(out, renderMarkdownLine(line, trimmed, width, st)...)
	}
	return out
}

// renderMarkdownLine renders one line outside a code fence.
func renderMarkdownLine(line, trimmed string, width int, st *kit.Styles) []string {
	switch {
	case trimmed == "":
		return []string{""}
	case trimmed == "---" || trimmed == "***" || trimmed == "___":
		return []string{st.CodeFrame.Render(strings.Repeat("─", min(width, 40)))}
	case strings.HasPrefix(trimmed, "#"):
		level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
		if rest := trimmed[level:]; level <= 6 && (rest == "" || rest[0] == ' ') {
			return wrapStyled(st.Heading.Render(stripInline(strings.TrimSpace(rest))), width, "", "")
		}
	case strings.HasPrefix(trimmed, "> ") || trimmed == ">":
		body := strings.TrimSpace(strings.TrimPrefix(trimmed, ">"))
		return wrapStyled(st.Quote.Render(stripInline(body)), width, "│ ", "│ ")
	}
	lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
	if len(lead) > width/2 {
		lead = lead[:width/2]
	}
	if marker, body, ok := listItem(trimmed); ok {
		first := lead + marker + " "
		return wrapStyled(inline(body, st), width, first, strings.Repeat(" ", ansi.StringWidth(first)))
	}
	return wrapStyled(inline(trimmed, st), width, lead, lead)
}

// listItem splits "- x", "* x", "+ x" and "12. x" into a marker and body.
func listItem(s string) (marker, body string, ok bool) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return "•", strings.TrimSpace(s[2:]), true
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits > 0 && digits <= 3 && len(s) > digits+1 && (s[digits] == '.' || s[digits] == ')') && s[digits+1] == ' ' {
		return s[:digits+1], strings.TrimSpace(s[digits+2:]), true
	}
	return "", "", false
}

// wrapStyled wraps s to width with a prefix on the first line and another on
// the following lines.
func wrapStyled(s string, width int, first, rest string) []string {
	w := max(width-max(ansi.StringWidth(first), ansi.StringWidth(rest)), 1)
	lines := carryStyle(strings.Split(ansi.Wrap(s, w, ""), "\n")) // every line keeps its style (inline.go)
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = rest + lines[i]
		}
	}
	return lines
}

// inline is in inline.go.

// stripInline removes **bold** and `code` markers where a line is styled
// as a whole (headings, quotes).
func stripInline(s string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(s)
}
