package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNeutralize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", ""},
		{"plain ascii", "hello, world\nsecond line", "hello, world\nsecond line"},
		{"unicode text", "naïve café — 日本語 🙂", "naïve café — 日本語 🙂"},
		{"emoji zwj sequence kept", "👩\u200d💻", "👩\u200d💻"},
		{"clear screen CSI", "before\x1b[2Jafter", "beforeafter"},
		{"SGR colour", "\x1b[31;1mred\x1b[0m", "red"},
		{"CSI private mode", "\x1b[?1049hX", "X"},
		{"OSC 52 clipboard write BEL", "a\x1b]52;c;cm0gLXJmIC8=\x07b", "ab"},
		{"OSC 8 hyperlink ST", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"OSC with UTF-8 C1 ST", "x\x1b]0;title\u009cy", "xy"},
		{"DCS", "x\x1bPq#0;2;0;0;0\x1b\\y", "xy"},
		{"APC", "x\x1b_Gf=100;AAAA\x1b\\y", "xy"},
		{"unterminated OSC keeps payload as text", "x\x1b]52;c;QQ==", "x52;c;QQ=="},
		{"OSC aborted by ESC", "\x1b]0;t\x1b[2Jz", "z"},
		{"two-byte ESC", "a\x1bcb\x1b7c", "abc"},
		{"charset designation", "a\x1b(Bb", "ab"},
		{"lone ESC at end", "abc\x1b", "abc"},
		{"ESC ESC", "a\x1b\x1b[1mb", "ab"},
		{"truncated CSI", "a\x1b[12", "a"},
		{"C0 controls removed", "a\x00b\x07c\x08d\x0be\x0cf", "abcdef"},
		{"DEL removed", "a\x7fb", "ab"},
		{"C1 controls removed", "a\u0085b\u009b2Jc", "ab2Jc"},
		{"raw 8-bit CSI is invalid UTF-8", "a\x9b2J", "a\uFFFD2J"},
		{"invalid UTF-8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"CRLF", "a\r\nb", "a\nb"},
		{"lone CR", "progress 10%\rprogress 99%", "progress 10%\nprogress 99%"},
		{"tab at line start", "\tx", "    x"},
		{"tab after text", "ab\tc\n\td", "ab  c\n    d"},
		{"tab after stripped sequence", "\x1b[1mab\tc", "ab  c"},
		{"bidi override", "abc\u202Eevil", "abc⟨U+202E⟩evil"},
		{"bidi isolates", "\u2066x\u2069", "⟨U+2066⟩x⟨U+2069⟩"},
		{"bidi marks", "\u200Fx\u061C", "⟨U+200F⟩x⟨U+061C⟩"},
		{"zero width space", "pass\u200Bword", "pass⟨U+200B⟩word"},
		{"byte order mark", "\uFEFFx", "⟨U+FEFF⟩x"},
		{"tag characters", "hi\U000E0041\U000E0042", "hi⟨U+E0041⟩⟨U+E0042⟩"},
		{"soft hyphen", "co\u00ADop", "co⟨U+00AD⟩op"},
		{"hangul filler", "a\u3164b", "a⟨U+3164⟩b"},
		{"line separator", "a\u2028b\u2029c", "a\nb\nc"},
		{"marker text is stable", "⟨U+202E⟩", "⟨U+202E⟩"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Neutralize(tt.in)
			if got != tt.want {
				t.Errorf("Neutralize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := Neutralize(got); again != got {
				t.Errorf("Neutralize is not idempotent: %q then %q", got, again)
			}
		})
	}
}

func TestNeutralizeCleanInputDoesNotAllocate(t *testing.T) {
	clean := strings.Repeat("Plain model output with **markdown**, `code` and ünïcödé.\n", 50)
	allocs := testing.AllocsPerRun(100, func() {
		if got := Neutralize(clean); len(got) != len(clean) {
			t.Fatalf("clean text changed")
		}
	})
	if allocs != 0 {
		t.Errorf("Neutralize(clean) allocated %v times per run, want 0", allocs)
	}
}

func TestNeutralizeIsLinear(t *testing.T) {
	// Many unterminated string introducers must not rescan the tail each
	// time. A quadratic implementation would take minutes here.
	hostile := strings.Repeat("\x1b]", 200_000) + strings.Repeat("x", 200_000)
	got := Neutralize(hostile)
	if strings.ContainsRune(got, 0x1b) {
		t.Fatalf("output contains ESC")
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		width int
		want  string
	}{
		{"collapses white space", "  a\n\n b\tc  ", 0, "a b c"},
		{"strips sequences", "\x1b[31merror\x1b[0m: bad", 0, "error: bad"},
		{"fits", "short", 10, "short"},
		{"cuts with ellipsis", "a long sentence here", 10, "a long se…"},
		{"wide runes", "日本語日本語", 7, "日本語…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in, tt.width); got != tt.want {
				t.Errorf("Line(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
			}
		})
	}
}

func FuzzNeutralize(f *testing.F) {
	for _, seed := range []string{
		"plain", "\x1b[2J", "\x1b]52;c;aGk=\x07", "\u202Eabc", "\t\r\n\x00",
		"\xc2\x9b", "\x1bP\x1b\\", "\u200B\uFEFF", "\xff\xfe",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Neutralize(in)
		if !utf8.ValidString(out) {
			t.Fatalf("Neutralize(%q) = %q is not valid UTF-8", in, out)
		}
		for _, r := range out {
			switch {
			case r == '\n':
			case r < 0x20, r == 0x7f:
				t.Fatalf("Neutralize(%q) = %q contains control %U", in, out, r)
			case r >= 0x80 && r <= 0x9f:
				t.Fatalf("Neutralize(%q) = %q contains C1 control %U", in, out, r)
			case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
				t.Fatalf("Neutralize(%q) = %q contains bidi control %U", in, out, r)
			case needsMarker(r):
				t.Fatalf("Neutralize(%q) = %q contains invisible %U", in, out, r)
			}
		}
		if again := Neutralize(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}

func BenchmarkNeutralize(b *testing.B) {
	clean := strings.Repeat("Plain model output with **markdown** and ünïcödé.\n", 200)
	dirty := strings.Repeat("Colour \x1b[31mred\x1b[0m and \u202Eevil\t.\n", 200)
	b.Run("clean", func(b *testing.B) {
		b.SetBytes(int64(len(clean)))
		b.ReportAllocs()
		for b.Loop() {
			Neutralize(clean)
		}
	})
	b.Run("dirty", func(b *testing.B) {
		b.SetBytes(int64(len(dirty)))
		b.ReportAllocs()
		for b.Loop() {
			Neutralize(dirty)
		}
	})
}
