package approval

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TestQuoteVisible: a string is shown as a JSON literal that decodes back
// to it, and holds nothing a terminal would not print plainly (SPEC D3).
func TestQuoteVisible(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "notes/todo.md", `"notes/todo.md"`},
		{"quote and backslash", `say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"csi", "\x1b[2J\x1b[H", `"\u001b[2J\u001b[H"`},
		{"osc 52", "\x1b]52;c;cm0=\a", `"\u001b]52;c;cm0=\u0007"`},
		{"usual controls", "a\nb\tc\rd\be\ff\x00", `"a\nb\tc\rd\be\ff\u0000"`},
		{"del and c1", "\x7f\u0085\u009b", `"\u007f\u0085\u009b"`},
		{"bidi", "\u202etxt.exe\u202c\u2066\u200f", `"\u202etxt.exe\u202c\u2066\u200f"`},
		{"invisible", "a\u200bb\u200dc\ufeffd\u00ade", `"a\u200bb\u200dc\ufeffd\u00ade"`},
		{"separators and spaces", "a\u2028b\u2029c\u00a0d\u3000e", `"a\u2028b\u2029c\u00a0d\u3000e"`},
		{"blank letters", "\u3164\u2800", `"\u3164\u2800"`},
		{"tag characters", "\U000E0041\U000E007F", `"\udb40\udc41\udb40\udc7f"`},
		{"printable unicode stays", "café 日本 🙂 e\u0301", "\"café 日本 🙂 e\u0301\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := quoteVisible(tt.in)
			if got != tt.want {
				t.Errorf("quoteVisible(%q) = %s, want %s", tt.in, got, tt.want)
			}
			var back string
			if err := json.Unmarshal([]byte(got), &back); err != nil || back != tt.in {
				t.Errorf("%s decodes to %q (%v), want %q", got, back, err, tt.in)
			}
		})
	}
}

// TestQuoteVisibleRandom: random strings of every kind of rune round-trip
// and come out printable.
func TestQuoteVisibleRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := []rune{0, 7, 27, '\n', '"', '\\', 'a', 0x7f, 0x85, 0x9b, 0xa0, 0xad, 0x200b, 0x200d, 0x202e, 0x2028,
		0x2066, 0x3164, 0xfeff, 0xfffd, 'é', '日', 0x1f642, 0xe0041, 0x10ffff}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(pool[rng.IntN(len(pool))])
		}
		in := b.String()
		got := quoteVisible(in)
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != in {
			t.Fatalf("%q → %s → %q (%v)", in, got, back, err)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && needsEscape(r)) {
				t.Fatalf("%q → %s keeps %U", in, got, r)
			}
		}
	}
}

// TestWrapRow: display lines fit the width, never split an escape, break
// a string after "\n", and join back to the row.
func TestWrapRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	atoms := []string{"a", "bc", " ", `\n`, `\"`, `\\`, `\u001b`, `\u202e`, "日", "🙂", "e\u0301", "ABCDEFGHIJ"}
	for range 500 {
		var b strings.Builder
		b.WriteString(`"k": "`)
		for range rng.IntN(60) {
			b.WriteString(atoms[rng.IntN(len(atoms))])
		}
		b.WriteString(`",`)
		text := b.String()
		indent, width := rng.IntN(6)*2, 16+rng.IntN(50)
		lines, done := wrapRow(text, indent, width, -1)
		if !done {
			t.Fatal("wrapRow with no limit did not finish")
		}
		if part, done := wrapRow(text, indent, width, 1); len(part) != 1 || part[0] != lines[0] || done != (len(lines) == 1) {
			t.Fatalf("wrapRow with most 1: %d lines, done %v; want the first of %d", len(part), done, len(lines))
		}
		var joined strings.Builder
		prev := 0
		for i, l := range lines {
			if w := ansi.StringWidth(l.text); w > max(width, indent+10) {
				t.Fatalf("line %q is %d wide, over %d", l.text, w, width)
			}
			strip := indent
			if i > 0 {
				strip += 2
			}
			body := l.text[strip:]
			if strings.HasPrefix(body, "u00") || strings.HasPrefix(body, "u20") || strings.HasSuffix(body, `\u0`) || strings.HasSuffix(body, `\u2`) {
				t.Fatalf("escape split at a line break: %q", l.text)
			}
			if text[prev:l.end] != body {
				t.Fatalf("line %d ends at %d: %q, but the line is %q", i, l.end, text[prev:l.end], body)
			}
			prev = l.end
			joined.WriteString(body)
		}
		if joined.String() != text {
			t.Fatalf("lines of %q join to %q", text, joined.String())
		}
	}
	if got, _ := wrapRow(`"a\nb\n"`, 0, 40, -1); len(got) != 2 || got[0].text != `"a\n` || got[1].text != `  b\n"` {
		t.Errorf(`wrapRow("a\nb\n") = %q, want a break after the first \n only`, fmt.Sprint(got))
	}
}

// TestParseArgsNotes: arguments that are not what they seem say so.
func TestParseArgsNotes(t *testing.T) {
	tests := []struct{ name, raw, note, row string }{
		{"empty", "  ", "The model sent no arguments; the tool receives {}.", "{}"},
		{"not json", `{"a":`, "The arguments are not valid JSON", `"{\"a\":"`},
		{"trailing text", `{} {}`, "text follows the JSON value", `"{} {}"`},
		{"invalid utf-8", "{\"a\":\"\xff\"}", "not valid UTF-8", "\"a\": \"\uFFFD\""},
		{"duplicate key", `{"a":1,"a":2}`, `"a" appears more than once`, `"a": 2`},
		{"numbers keep their digits", `{"n":12345678901234567890.50}`, "", `"n": 12345678901234567890.50`},
		{"deep nesting", strings.Repeat("[", 300) + strings.Repeat("]", 300), "", "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parseArgs(tt.raw)
			var notes, rows []string
			for _, r := range p.rows {
				if r.note {
					notes = append(notes, r.text)
				} else {
					rows = append(rows, r.text)
				}
			}
			if tt.note != "" && !strings.Contains(strings.Join(notes, "\n"), tt.note) {
				t.Errorf("notes %q lack %q", notes, tt.note)
			}
			if tt.note == "" && len(notes) > 0 {
				t.Errorf("unexpected notes %q", notes)
			}
			if !strings.Contains(strings.Join(rows, "\n"), tt.row) {
				t.Errorf("rows %q lack %q", rows, tt.row)
			}
			for _, l := range p.layout(60, false, "v") {
				if !utf8.ValidString(l.text) || strings.ContainsFunc(l.text, unicode.IsControl) {
					t.Errorf("display line %q is not printable", l.text)
				}
			}
		})
	}
}

// TestLongValueEscapedOnDemand: a value over lazyEscapeAbove is escaped
// only as far as the folded pane shows, yet unfolding shows all of it,
// escapes included, and the fold marker counts what is hidden.
func TestLongValueEscapedOnDemand(t *testing.T) {
	body := strings.Repeat("x\u202e", 12000) + "THE-END"
	raw, err := json.Marshal(map[string]string{"k": body})
	if err != nil {
		t.Fatal(err)
	}
	p := parseArgs(string(raw))
	folded := p.layout(80, false, "v")
	var sb strings.Builder
	for _, l := range folded {
		sb.WriteString(l.text + "\n")
	}
	if strings.Contains(sb.String(), "THE-END") || !strings.Contains(sb.String(), "more characters") {
		t.Fatalf("folded: want a fold marker and no end of the value:\n%s", sb.String())
	}
	sb.Reset()
	for _, l := range p.layout(80, true, "v") {
		sb.WriteString(strings.TrimSpace(l.text))
	}
	all := sb.String()
	if !strings.Contains(all, `THE-END"`) || strings.Count(all, `\u202e`) != 12000 || strings.ContainsRune(all, 0x202e) {
		t.Fatalf("unfolded: want every escape and the end; got %d escapes, end present %v",
			strings.Count(all, `\u202e`), strings.Contains(all, "THE-END"))
	}
}

// TestApprovalArgumentsAreTheCall: what the pane shows is the call's own
// arguments: the pretty-printed rows parse back to the same JSON value as
// Call.Arguments, and every display line of a row, joined, is that row
// (SPEC D3, D5). Hostile text is escaped, never drawn raw.
func TestApprovalArgumentsAreTheCall(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"plain", `{"path": "notes/todo.md", "max_bytes": 4096}`},
		{"hostile", hostileArgs()},
		{"nested and empty", `{"a":{"b":[1,2,{"c":null}],"d":{}},"e":[],"f":true,"g":-1.5e300,"h":12345678901234567890}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parseArgs(tc.args)
			var rows []string
			for _, r := range p.rows {
				if !r.note {
					rows = append(rows, r.text)
				}
			}
			var got, want any
			if err := json.Unmarshal([]byte(strings.Join(rows, "\n")), &got); err != nil {
				t.Fatalf("shown rows are not JSON: %v\n%s", err, strings.Join(rows, "\n"))
			}
			if err := json.Unmarshal([]byte(tc.args), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("shown arguments differ from the call:\n got %v\nwant %v", got, want)
			}
			for _, r := range p.rows {
				if r.note {
					continue
				}
				lines, _ := wrapRow(r.text, r.depth*2, 60, -1)
				var joined strings.Builder
				for i, l := range lines {
					strip := r.depth * 2
					if i > 0 {
						strip += 2
					}
					joined.WriteString(l.text[strip:])
				}
				if joined.String() != r.text {
					t.Fatalf("display lines of a row do not join to it:\n got %q\nwant %q", joined.String(), r.text)
				}
			}
		})
	}
}

// hostileArgs (the root's tests have the same) is a call's arguments written to fool the person: terminal
// escapes, an OSC 52 clipboard write, a bidi override both escaped and raw,
// invisible characters, a line separator, a duplicate key, a 5,000-character
// value, and nesting. Keys are deliberately not in alphabetical order.
func hostileArgs() string {
	long := strings.Repeat("A", 4990) + "\\nEND"
	return `{"path":"notes/` + "\u202e" + `txt.exe","clip":"\u001b]52;c;cm0gLXJmIH4K\u0007","payload":"` + long + `",` +
		`"clear":"\u001b[2J\u001b[Hdone","name":"\u202etxt.exe","zw":"a\u200bb\u2028c\u00a0d\u0085e` + "\U000E0041" + `",` +
		`"path":"/etc/shadow","options":{"mode":"overwrite","targets":[{"host":"db1","force":true},{"host":"db2","force":false}],"retries":3}}`
}
