package chat

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStreamingBoldNeverShowsItsMarkers (SPEC L3; issue 28 item 10): while
// an answer streams, a bold or code span whose closing marker has not
// arrived is drawn styled already, its markers gone — also with a space or
// half the closing marker last, and a marker with nothing after it yet is
// not drawn; once the answer ends it reads as the whole text renders.
// Italics and arithmetic stay as written, and so does a fenced line.
func TestStreamingBoldNeverShowsItsMarkers(t *testing.T) {
	st := attrStyles()
	bold := st.Bold.Render("impor")
	for _, text := range []string{"Here is **impor", "Here is **impor ", "Here is **impor*"} {
		it := &Item{Kind: ItemAssistant, Text: text, Streaming: true}
		got := strings.Join(renderItem(it, 80, st), "\n")
		if strings.Contains(ansi.Strip(got), "**") || !strings.Contains(got, bold) {
			t.Errorf("streaming %q draws %q, want %q bold and no markers", text, got, "impor")
		}
	}
	for text, want := range map[string]string{
		"Here is **":          "Here is",
		"run `go te":          "run go te",
		"2 * 3":               "2 * 3",
		"```\nfoo **bar":      "foo **bar",
		"done **now** and **": "done now and",
	} {
		it := &Item{Kind: ItemAssistant, Text: text, Streaming: true}
		got := ansi.Strip(strings.Join(renderItem(it, 80, st), "\n"))
		if !strings.Contains(got, want) || (want != "foo **bar" && want != "2 * 3" && strings.Contains(got, "*")) {
			t.Errorf("streaming %q draws %q, want %q", text, got, want)
		}
	}
	it := &Item{Kind: ItemAssistant, Text: "Here is **impor", Streaming: true}
	_ = renderItem(it, 80, st)
	it.Streaming = false
	if got := ansi.Strip(strings.Join(renderItem(it, 80, st), "\n")); !strings.Contains(got, "**impor") {
		t.Errorf("after the stream an unclosed marker is text again: %q", got)
	}
}
