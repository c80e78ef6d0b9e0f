package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNeutralize checks the cases this package relies on (the sanitizer
// itself is safetext's, tested there).
func TestNeutralize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello, world\nok", "hello, world\nok"},
		{"csi color", "a\x1b[31mred\x1b[0m b", "ared b"},
		{"osc 52 clipboard", "\x1b]52;c;ZXZpbA==\x07x", "x"},
		{"osc 8 link", "\x1b]8;;https://e.example\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"lone cr", "safe\rEVIL", "safe\nEVIL"},
		{"bidi override shown", "abc\u202etxt", "abc⟨U+202E⟩txt"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := neutralize(tt.in); got != tt.want {
				t.Fatalf("neutralize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// checkInert fails if s could still drive or reorder a terminal.
func checkInert(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%q is not valid UTF-8", s)
	}
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("%q still contains %U", s, r)
		}
	}
}

func TestCleanText(t *testing.T) {
	got := cleanText("\x1b[1m"+strings.Repeat("é", 1000), 101)
	if len(got) > 101 || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Fatalf("cleanText = %q (%d bytes)", got, len(got))
	}
	if got := cleanText("short", 10); got != "short" {
		t.Fatalf("cleanText(short) = %q", got)
	}
}

// FuzzDecodeJSONString checks the bounded decoder against encoding/json:
// with room it decodes the same string; with a cap it returns a valid
// prefix no longer than the cap.
func FuzzDecodeJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\u2028😀", "\xff", strings.Repeat("x", 100)} {
		f.Add(s, 5)
	}
	f.Add(`\ud800`, 3)
	f.Fuzz(func(t *testing.T, s string, max int) {
		lit, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		var want string
		if err := json.Unmarshal(lit, &want); err != nil {
			t.Fatal(err)
		}
		got, cut, err := decodeJSONString(lit, len(lit)*4)
		if err != nil || cut || got != want {
			t.Fatalf("decode(%s) = %q, %v, %v; want %q", lit, got, cut, err, want)
		}
		max = max & 0xff
		got, cut, err = decodeJSONString(lit, max)
		if err != nil || len(got) > max || !strings.HasPrefix(want, got) || cut != (len(want) > len(got)) && len(want) > max {
			t.Fatalf("capped decode(%s, %d) = %q, %v, %v", lit, max, got, cut, err)
		}
		// Raw escapes as a server might write them, not only as Go does.
		raw := []byte(`"` + s + `"`)
		if json.Valid(raw) {
			var w2 string
			if err := json.Unmarshal(raw, &w2); err == nil {
				if g2, _, err := decodeJSONString(raw, len(raw)*4); err != nil || g2 != w2 {
					t.Fatalf("decode(%s) = %q, %v; want %q", raw, g2, err, w2)
				}
			}
		}
	})
}
