package kit

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/lipgloss"
)

// Styles is every style the interface uses, built once from a Theme by
// DefaultStyles and shared read-only through Common.
type Styles struct {
	// Transcript.
	UserLabel      lipgloss.Style
	AssistantLabel lipgloss.Style
	Body           lipgloss.Style
	Heading        lipgloss.Style
	Bold           lipgloss.Style
	Italic         lipgloss.Style // *x* and _x_
	InlineCode     lipgloss.Style
	CodeBlock      lipgloss.Style // code lines inside a fence
	CodeFrame      lipgloss.Style // the fence's frame and language label
	Quote          lipgloss.Style
	Reasoning      lipgloss.Style
	ToolCall       lipgloss.Style
	ToolResult     lipgloss.Style
	ToolError      lipgloss.Style
	Interrupted    lipgloss.Style
	Welcome        lipgloss.Style

	// Chrome.
	Rule      lipgloss.Style // the line above the input
	TooSmall  lipgloss.Style
	Input     textarea.Style
	InputBlur textarea.Style
	Help      help.Styles

	Status StatusStyles
	Modal  ModalStyles
}

// StatusStyles style the status line.
type StatusStyles struct {
	Model     lipgloss.Style
	Server    lipgloss.Style
	Usage     lipgloss.Style
	Streaming lipgloss.Style
	Notice    lipgloss.Style
	Warning   lipgloss.Style
	Error     lipgloss.Style
	Badge     lipgloss.Style
	Separator lipgloss.Style
}

// ModalStyles style modal panes.
type ModalStyles struct {
	Frame    lipgloss.Style
	Title    lipgloss.Style
	Item     lipgloss.Style
	Selected lipgloss.Style
	Detail   lipgloss.Style
	Error    lipgloss.Style
	Prompt   lipgloss.Style

	// Settings and its panes.
	Tab           lipgloss.Style // a page that is not shown
	ActiveTab     lipgloss.Style // the page shown
	Label         lipgloss.Style // a form field's label
	FocusedLabel  lipgloss.Style // the label of the field with the cursor
	Group         lipgloss.Style // a group header, such as a server's name over its tools
	Claim         lipgloss.Style // what a server says about itself (SPEC D2)
	Button        lipgloss.Style
	FocusedButton lipgloss.Style
	// Status badges: working, needs attention, failed, switched off.
	StatusOK   lipgloss.Style
	StatusWarn lipgloss.Style
	StatusBad  lipgloss.Style
	StatusOff  lipgloss.Style
	// A unified diff in the approval pane's preview: added and removed
	// lines, hunk headers, file headers and unchanged context. The +, -
	// and @@ stay in the text, so a diff reads the same without colour.
	DiffAdd     lipgloss.Style
	DiffDel     lipgloss.Style
	DiffHunk    lipgloss.Style
	DiffHeader  lipgloss.Style
	DiffContext lipgloss.Style
}

// DefaultStyles builds the Styles for theme, rendered by r (nil means the
// default lipgloss renderer), its colours resolved for r's terminal once
// (Theme.For).
func DefaultStyles(r *lipgloss.Renderer, t Theme) *Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	t = t.For(r)
	s := r.NewStyle
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return s().Foreground(c) }

	st := &Styles{
		UserLabel:      fg(t.Accent).Bold(true),
		AssistantLabel: fg(t.Assistant).Bold(true),
		Body:           fg(t.Text),
		Heading:        fg(t.Accent).Bold(true),
		Bold:           s().Bold(true),
		Italic:         s().Italic(true),
		InlineCode:     fg(t.Code),
		CodeBlock:      fg(t.Code),
		CodeFrame:      fg(t.Subtle),
		Quote:          fg(t.Muted).Italic(true),
		Reasoning:      fg(t.Muted).Faint(true),
		ToolCall:       fg(t.Tool),
		ToolResult:     fg(t.Muted),
		ToolError:      fg(t.Error),
		Interrupted:    fg(t.Warning).Italic(true),
		Welcome:        fg(t.Muted),

		Rule:     fg(t.Subtle),
		TooSmall: fg(t.Warning).Bold(true),
		Help: help.Styles{
			Ellipsis:       fg(t.Subtle),
			ShortKey:       fg(t.Muted).Bold(true),
			ShortDesc:      fg(t.Muted),
			ShortSeparator: fg(t.Subtle),
			FullKey:        fg(t.Muted).Bold(true),
			FullDesc:       fg(t.Muted),
			FullSeparator:  fg(t.Subtle),
		},
		Status: StatusStyles{
			Model:     fg(t.Accent).Bold(true),
			Server:    fg(t.Muted),
			Usage:     fg(t.Muted),
			Streaming: fg(t.Success),
			Notice:    fg(t.Muted),
			Warning:   fg(t.Warning),
			Error:     fg(t.Error).Bold(true),
			Badge:     s().Foreground(t.BadgeText).Background(t.BadgeFill).Bold(true).Reverse(isNoColor(t)),
			Separator: fg(t.Subtle),
		},
		Modal: ModalStyles{
			Frame:    s().Border(lipgloss.RoundedBorder()).BorderForeground(t.Accent).Padding(0, 1),
			Title:    fg(t.Accent).Bold(true),
			Item:     fg(t.Text),
			Selected: fg(t.Accent).Bold(true).Reverse(isNoColor(t)),
			Detail:   fg(t.Muted),
			Error:    fg(t.Error),
			Prompt:   fg(t.Accent),

			Tab:           fg(t.Muted),
			ActiveTab:     fg(t.Accent).Bold(true).Underline(true),
			Label:         fg(t.Muted),
			FocusedLabel:  fg(t.Accent).Bold(true),
			Group:         fg(t.Text).Bold(true),
			Claim:         fg(t.Warning).Italic(true),
			Button:        fg(t.Muted),
			FocusedButton: fg(t.Accent).Bold(true).Reverse(true),
			StatusOK:      fg(t.Success),
			StatusWarn:    fg(t.Warning),
			StatusBad:     fg(t.Error).Bold(true),
			StatusOff:     fg(t.Muted),
			DiffAdd:       fg(t.Success),
			DiffDel:       fg(t.Error),
			DiffHunk:      fg(t.Code),
			DiffHeader:    fg(t.Text).Bold(true),
			DiffContext:   fg(t.Text),
		},
	}
	st.Input = textarea.Style{
		Base:             s(),
		CursorLine:       s(),
		CursorLineNumber: fg(t.Muted),
		EndOfBuffer:      fg(t.Subtle),
		LineNumber:       fg(t.Subtle),
		Placeholder:      fg(t.Muted),
		Prompt:           fg(t.Accent),
		Text:             fg(t.Text),
	}
	st.InputBlur = st.Input
	st.InputBlur.Prompt = fg(t.Subtle)
	return st
}

// isNoColor reports whether t is the colourless theme, where selection and
// badges fall back to reverse video.
func isNoColor(t Theme) bool {
	_, ok := t.Accent.(lipgloss.NoColor)
	return ok
}
