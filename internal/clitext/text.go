package clitext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"vouch/safetext"
)

// Width is the widest line of every help text (issue 18 item 19).
const Width = 80

// WrapHanging writes head followed by text, wrapped at Width at
// spaces; continuation lines start with indent spaces. A word longer
// than a line stays whole.
func WrapHanging(head, text string, indent int) string {
	var b strings.Builder
	line := head
	fresh := true // nothing of text on this line yet
	for _, w := range strings.Fields(text) {
		if !fresh && len([]rune(line))+1+len([]rune(w)) > Width {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line, fresh = strings.Repeat(" ", indent), true
		}
		if fresh {
			line += w
			fresh = false
		} else {
			line += " " + w
		}
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}

// EditDistance is the Levenshtein distance of a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Nearest is the name of known nearest to name (case aside) when one is
// close enough to be a typo of it — an edit distance of at most 2 — the
// first of the nearest on a tie, and "" when none is: the did-you-mean of
// every unknown command, subcommand and help topic.
func Nearest(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := EditDistance(strings.ToLower(name), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Plural counts n things: "1 tool", "0 tools", "2 problems".
func Plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// WriteJSON writes v to stdout as indented JSON, every code point the
// terminal interface neutralises (C1 and bidi controls, zero-width and
// tag characters, the BOM) escaped as \uXXXX: the data stays recoverable,
// and nothing raw reaches a terminal or a script that prints a field
// (safetext.EscapeJSON; SPEC D3). '<', '>' and '&' stay themselves, as a
// person piping to jq expects (not \u003c). Every --json output goes
// through here.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	if _, err := w.Write(safetext.EscapeJSON(buf.Bytes())); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}
