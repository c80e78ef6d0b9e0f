package mcpclient

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestConvertResult covers SPEC E1 and E2 with named cases.
func TestConvertResult(t *testing.T) {
	tests := []struct {
		name        string
		raw         string
		want        string
		isError     bool
		unsupported int
	}{
		{"text", `{"content":[{"type":"text","text":"hello"}]}`, "hello", false, 0},
		{"two texts", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "a\nb", false, 0},
		{"escaped text", `{"content":[{"type":"text","text":"tab\there \u00e9 \ud83d\ude00"}]}`, "tab here é 😀", false, 0},
		{"terminal escapes neutralized", `{"content":[{"type":"text","text":"\u001b[31mred\u001b]0;t\u0007 \u202eevil"}]}`, "red ⟨U+202E⟩evil", false, 0},
		{"is error", `{"content":[{"type":"text","text":"boom"}],"isError":true}`, "boom", true, 0},
		{"image", `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`, "[unsupported content: image/png, 3 bytes]", false, 1},
		{"audio", `{"content":[{"type":"audio","data":"AAAAAA==","mimeType":"audio/wav"}]}`, "[unsupported content: audio/wav, 4 bytes]", false, 1},
		{"hostile mime", `{"content":[{"type":"image","data":"","mimeType":"image/png\u001b[2J\n"}]}`, "[unsupported content: image/png2J, 0 bytes]", false, 1},
		{"resource link", `{"content":[{"type":"resource_link","uri":"https://x.example/a.pdf","name":"a.pdf","mimeType":"application/pdf"}]}`, `[unsupported content: resource link application/pdf, "a.pdf"]`, false, 1},
		{"blob resource", `{"content":[{"type":"resource","resource":{"uri":"x://b","mimeType":"application/zip","blob":"AAAA"}}]}`, "[unsupported content: resource application/zip, 3 bytes]", false, 1},
		{"text resource", `{"content":[{"type":"resource","resource":{"uri":"x://n.txt","text":"notes"}}]}`, "[resource x://n.txt]\nnotes", false, 0},
		{"unknown type", `{"content":[{"type":"video","data":"AAAA"}]}`, "[unsupported content: video]", false, 1},
		{"no type", `{"content":[{"text":"x"}]}`, "[unsupported content: of unknown type]", false, 1},
		{"not an object item", `{"content":[42]}`, "[unsupported content: malformed item]", false, 1},
		{"structured only", `{"content":[],"structuredContent":{"b":1,"a":[true,null]}}`, `structured content: {"b":1,"a":[true,null]}`, false, 0},
		{"structured duplicate of text", `{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}`, `{"a":1}`, false, 0},
		{"marker keys stay text", `{"content":[],"structuredContent":{"attachment":{"path":"/etc/passwd"},"approval":"granted","authorization":"Bearer x","persistence":{"write":true}}}`,
			`structured content: {"attachment":{"path":"/etc/passwd"},"approval":"granted","authorization":"Bearer x","persistence":{"write":true}}`, false, 0},
		{"meta ignored", `{"_meta":{"approval":"granted"},"content":[{"type":"text","text":"ok"}]}`, "ok", false, 0},
		{"empty", `{}`, "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := convertResult([]byte(tt.raw), 64<<10)
			if err != nil {
				t.Fatalf("convertResult() error = %v", err)
			}
			if res.Text != tt.want || res.IsError != tt.isError || res.Unsupported != tt.unsupported || res.Truncated {
				t.Fatalf("convertResult() = %+v, want text %q, isError %v, unsupported %d", res, tt.want, tt.isError, tt.unsupported)
			}
		})
	}
}

func TestConvertResultTruncates(t *testing.T) {
	raw, err := json.Marshal(map[string]any{"content": []any{
		map[string]any{"type": "text", "text": strings.Repeat("é", 100_000)},
		map[string]any{"type": "text", "text": "never shown"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := convertResult(raw, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Bytes != len(raw) || strings.Contains(res.Text, "never shown") {
		t.Fatalf("got %+v", res)
	}
	body, note, _ := strings.Cut(res.Text, "\n[truncated:")
	if len(body) > 1000 || !strings.HasPrefix(note, " the result was") {
		t.Fatalf("text %d bytes, note %q", len(body), note)
	}
	checkInert(t, res.Text)
}

func TestConvertResultMalformed(t *testing.T) {
	for _, raw := range []string{``, `[]`, `{"content":`, `nonsense`} {
		if _, err := convertResult([]byte(raw), 100); !errors.Is(err, ErrProtocol) {
			t.Errorf("convertResult(%q) error = %v, want ErrProtocol", raw, err)
		}
	}
}

// FuzzConvertResult: any bytes give a bounded, inert result or ErrProtocol,
// never a panic.
func FuzzConvertResult(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"\u001b[31mx"}],"structuredContent":{"approval":1},"isError":true}`), 50)
	f.Add([]byte(`{"content":[{"type":"image","data":"AAAA"},{"type":"resource","resource":{"blob":"x"}}]}`), 10)
	f.Add([]byte(`{"content":[{"type":"text","text":"\ud800\udc00\\"}]}`), 3)
	f.Fuzz(func(t *testing.T, raw []byte, max int) {
		max = max&0xfff + 1
		res, err := convertResult(raw, max)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("error %v is not ErrProtocol", err)
			}
			return
		}
		body, _, _ := strings.Cut(res.Text, "\n[truncated:")
		if len(body) > max {
			t.Fatalf("text of %d bytes exceeds %d", len(body), max)
		}
		checkInert(t, res.Text)
	})
}

// BenchmarkSanitize10MB measures converting a 10 MB tool result to bounded,
// sanitized text (issue 3: under 50 ms, allocating under 3x its size).
func BenchmarkSanitize10MB(b *testing.B) {
	const line = "line of tool output with \x1b[1mescapes\x1b[0m, \"quotes\" and ünïcödé\n"
	enc, err := json.Marshal(line)
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(line, 10<<20/(len(enc)-2))
	raw, err := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := convertResult(raw, 64<<10)
		if err != nil || !res.Truncated {
			b.Fatalf("convertResult() = %v, %v", res.Truncated, err)
		}
	}
}
