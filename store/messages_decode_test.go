package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// recordSamples are stored records as vouch writes them, and shapes an
// older or a damaged record may have.
func recordSamples() [][]byte {
	created := time.Date(2026, 12, 1, 23, 4, 5, 123456789, time.UTC)
	var out [][]byte
	for _, r := range []messageRecord{
		{Role: "user", Content: "hello", Status: StatusComplete, Created: created},
		{Role: "assistant", Content: "line one\nline \"two\"\t\\ </script> & ü 漢字 🙂 \u2028", Status: StatusPartial, CutOff: true, Created: created.In(time.FixedZone("x", 3600))},
		{Role: "tool", Content: "\x00\x1f bad\xffutf8", ToolCallID: "call_1", IsError: true, Status: StatusComplete, Created: created},
		{Role: "assistant", ToolCalls: json.RawMessage(`[{"id":"c","name":"f","arguments":"{}"}]`), Status: StatusStreaming},
		{},
	} {
		b, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		out = append(out, b)
	}
	return append(out,
		[]byte(`{}`), []byte(` {"role":"user"}`), []byte(`{"Role":"user"}`), []byte(`{"role":"a","role":"b"}`),
		[]byte(`{"role":null}`), []byte(`{"is_error":true,"cut_off":false}`), []byte(`{"is_error":"true"}`),
		[]byte(`{"content":"\ud83d\ude42 \u00e9 \ud800 x"}`), []byte(`{"content":"\ud83d"}`), []byte(`{"created":"2026\u002d12-01T00:00:00Z"}`),
		[]byte(`{"role":"user",}`), []byte(`{"role":"user"}}`), []byte(`{"role":"u}`), []byte(`{"extra":1,"role":"u"}`),
		[]byte(`{"created":"2026-12-01T00:00:00+01:00"}`), []byte(`{"created":"not a time"}`), []byte(`{"content":"a\qb"}`))
}

// TestParseRecordAsJSON (SPEC L3; issue 29 item 4): every record the
// direct reader accepts reads exactly as encoding/json reads it, what vouch
// writes is read directly, and what encoding/json refuses is refused.
func TestParseRecordAsJSON(t *testing.T) {
	direct := 0
	for _, v := range recordSamples() {
		checkParseRecord(t, v)
		if _, ok := parseRecord(v); ok {
			direct++
		}
	}
	if direct < 6 {
		t.Errorf("%d of the samples were read directly, want the records vouch writes (at least 6)", direct)
	}
	long, _ := json.Marshal(messageRecord{Role: "user", Content: strings.Repeat("some words ", 1000), Status: StatusComplete, Created: time.Now()})
	if _, ok := parseRecord(long); !ok {
		t.Error("a plain record of 11 KB was left to encoding/json")
	}
}

func checkParseRecord(t *testing.T, v []byte) {
	t.Helper()
	var want messageRecord
	wantErr := json.Unmarshal(v, &want)
	got, err := unmarshalRecord(v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", v, err, wantErr)
	}
	if err != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q read as\n%#v\nencoding/json reads\n%#v", v, got, want)
	}
}

// FuzzParseRecord holds the direct reader of message records to
// encoding/json's reading on any input (a damaged database's too).
func FuzzParseRecord(f *testing.F) {
	for _, v := range recordSamples() {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v []byte) { checkParseRecord(t, v) })
}

// BenchmarkDecodeRecord is one stored record of about 70 bytes of text,
// read directly against encoding/json (issue 29 item 4).
func BenchmarkDecodeRecord(b *testing.B) {
	v, _ := json.Marshal(messageRecord{Role: "user", Content: "message 42: some words of a conversation that went on for a long while",
		Status: StatusComplete, Created: time.Now()})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var r messageRecord
			if err := json.Unmarshal(v, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, ok := parseRecord(v); !ok {
				b.Fatal("not read directly")
			}
		}
	})
}
