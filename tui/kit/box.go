package kit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ModalBox renders lines in the modal frame, inner cells wide and, when
// height is positive, exactly height lines tall inside the frame.
func ModalBox(st ModalStyles, inner, height int, lines []string) string {
	if height > 0 {
		if len(lines) > height {
			lines = lines[:height]
		}
		for len(lines) < height {
			lines = append(lines, "")
		}
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > inner {
			lines[i] = ansi.Truncate(l, inner, "…")
		}
	}
	return st.Frame.Width(inner + st.Frame.GetHorizontalPadding()).Render(strings.Join(lines, "\n"))
}

// InnerWidth is the text width inside the modal frame for a box of width
// cells.
func InnerWidth(st ModalStyles, box int) int {
	return max(box-st.Frame.GetHorizontalFrameSize(), 10)
}

// SettlingNotice is what a pane says while it settles (SPEC D7).
const SettlingNotice = "keys active in a moment"

// HeldNotice is what a pane over the chat says while the keyboard belongs
// to the person's message: it appeared while they were writing, or they
// typed on (SPEC D7).
const HeldNotice = "your keys go to your message · tab to answer"

// HeldGrantNotice is what a pane opened from Settings says while its
// granting keys wait for tab: something to grant appeared while the
// person was typing (SPEC D7).
const HeldGrantNotice = "you were typing · tab to answer"

// SettleLead is notice as the start of a sentence ("Keys active in a
// moment. "), or "" when there is none.
func SettleLead(notice string) string {
	if notice == "" {
		return ""
	}
	return strings.ToUpper(notice[:1]) + notice[1:] + ". "
}
