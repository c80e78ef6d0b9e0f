package kit

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// MinLinesAbovePane is the fewest transcript lines worth keeping above a
// pane that waits for a decision.
const MinLinesAbovePane = 3

// LinesAbove is what a screen of body's height shows above a pane of
// paneHeight rows at its bottom (issue 28 item 9): the transcript's last
// lines (body without the blank padding under a short transcript), then
// one blank row; ok is false when fewer than MinLinesAbovePane would fit.
func LinesAbove(body []string, paneHeight int) (above []string, ok bool) {
	room := len(body) - paneHeight - 1
	if room < MinLinesAbovePane {
		return nil, false
	}
	text := body
	for len(text) > 0 && text[len(text)-1] == "" {
		text = text[:len(text)-1]
	}
	above = make([]string, room-min(room, len(text)), room+1)
	above = append(append(above, text[max(len(text)-room, 0):]...), "")
	return above, true
}

// Notice draws sentences in st within w x h cells: each wrapped at word
// boundaries (issue 28 item 7), whole lines left out below h.
func Notice(st lipgloss.Style, sentences []string, w, h int) string {
	var out []string
	for _, l := range sentences {
		for _, part := range strings.Split(ansi.Wrap(l, max(w, 1), ""), "\n") {
			out = append(out, st.Render(part))
		}
	}
	return strings.Join(out[:min(len(out), max(h, 1))], "\n")
}
