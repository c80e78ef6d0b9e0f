package policy

import (
	"encoding/json"
	"path"
	"strings"
	"testing"
)

// bigArgs returns arguments of about n bytes: a path the rule judges and a
// long content string with escapes, as a write-like tool would receive.
func bigArgs(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"path":"/srv/data/reports/q3.md","mode":"safe","content":"`)
	line := `line of text with \"quotes\", a tab\t and unicode \u00e9 to skip\n`
	for b.Len() < n-len(`"}`)-len(line) {
		b.WriteString(line)
	}
	b.WriteString(`"}`)
	return json.RawMessage(b.String())
}

// benchDecide times one decision that reads every byte of the arguments:
// an allow rule with an "under" and a "one-of" constraint that hold.
func benchDecide(b *testing.B, call Call) { benchDecidePin(b, call, nil) }

// benchDecidePin is benchDecide with the rule pinned to pin (SPEC D8); the
// call then carries the served definition's digest, as the product's do.
func benchDecidePin(b *testing.B, call Call, pin *Pin) {
	s := NewSnapshot([]Rule{{Identity: testTool, Class: Allow, Effect: ReadOnly, Pin: pin, Constraints: []Constraint{
		{Arg: "path", Kind: Under, Values: []string{"/srv/data"}},
		{Arg: "mode", Kind: OneOf, Values: []string{"safe", "fast"}},
	}}}, Options{Workspace: testWS})
	if pin != nil {
		call.Definition = pin.Digest
	}
	if d := s.Decide(call); d.Verdict != VerdictAllow {
		b.Fatalf("got %s (%s), want allow", d.Verdict, d.Reason)
	}
	b.SetBytes(int64(len(call.Arguments)))
	b.ReportAllocs()
	for b.Loop() {
		s.Decide(call)
	}
}

// BenchmarkDecide64KB: the decision on 64 KB of arguments (issue 4
// "Speed": policy decision plus preview under 1 ms up to 64 KB), beside a
// 100-byte call for the ratio. Run:
//
//	go test -run '^$' -bench Decide -benchmem ./policy
func BenchmarkDecide64KB(b *testing.B) {
	args := bigArgs(64 << 10)
	if len(args) > 64<<10 || len(args) < 63<<10 {
		b.Fatalf("arguments are %d bytes, want about 64 KiB", len(args))
	}
	benchDecide(b, Call{Identity: testTool, Arguments: args, CorrelationID: "c"})
}

// BenchmarkDecide100B is the same decision on a 100-byte call.
func BenchmarkDecide100B(b *testing.B) {
	args := json.RawMessage(`{"path":"/srv/data/reports/q3.md","mode":"safe","content":"a short note, nothing more."}`)
	args = append(args[:len(args)-3], strings.Repeat(".", 100-len(args))+`."}`...)
	if len(args) != 100 {
		b.Fatalf("arguments are %d bytes, want 100", len(args))
	}
	benchDecide(b, Call{Identity: testTool, Arguments: args, CorrelationID: "c"})
}

// BenchmarkDecidePinned100B and BenchmarkDecidePinned64KB are the
// decisions above with the rule pinned to a definition (SPEC D8, issue 12
// "Speed": the pin check adds under 50 µs). Run beside the unpinned ones
// for a same-run ratio:
//
//	go test -run '^$' -bench 'Decide(Pinned)?(100B|64KB)$' -benchmem ./policy
func BenchmarkDecidePinned100B(b *testing.B) {
	args := json.RawMessage(`{"path":"/srv/data/reports/q3.md","mode":"safe","content":"a short note, nothing more."}`)
	pin := mustPin(b, pinBenchDef())
	benchDecidePin(b, Call{Identity: testTool, Arguments: args, CorrelationID: "c"}, &pin)
}

// BenchmarkDecidePinned64KB: the pinned decision on 64 KB of arguments.
func BenchmarkDecidePinned64KB(b *testing.B) {
	pin := mustPin(b, pinBenchDef())
	benchDecidePin(b, Call{Identity: testTool, Arguments: bigArgs(64 << 10), CorrelationID: "c"}, &pin)
}

// BenchmarkDecideChanged: a pinned rule whose tool changed; the decision
// asks with the pinned definition attached (a 16 KB schema).
func BenchmarkDecideChanged(b *testing.B) {
	pin := mustPin(b, pinBenchDef())
	s := NewSnapshot([]Rule{{Identity: testTool, Class: Allow, Effect: ReadOnly, Pin: &pin}}, Options{})
	call := Call{Identity: testTool, Arguments: json.RawMessage(`{"path":"/srv/data/x"}`), Definition: mustPin(b, rugPulled()).Digest}
	if d := s.Decide(call); d.Changed == nil {
		b.Fatalf("got %+v, want a changed tool", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Decide(call)
	}
}

// pinBenchDef is a definition with a 16 KB input schema.
func pinBenchDef() Definition {
	var props strings.Builder
	for i := 0; props.Len() < 16<<10; i++ {
		if i > 0 {
			props.WriteByte(',')
		}
		props.WriteString(`"field_` + strings.Repeat("x", 8) + string(rune('a'+i%26)) + strings.Repeat("y", i%7) + `_` + string(rune('0'+i%10)) + `":{"type":"string","description":"one of many fields"}`)
	}
	d := filesDef
	d.InputSchema = json.RawMessage(`{"type":"object","properties":{` + props.String() + `}}`)
	return d
}

// BenchmarkDecide64KBBuiltinRead: the default for a built-in read with 64
// KB of arguments (a long search pattern).
func BenchmarkDecide64KBBuiltinRead(b *testing.B) {
	args := json.RawMessage(`{"path":"src","pattern":"` + strings.Repeat("x", 64<<10-30) + `"}`)
	s := NewSnapshot(nil, Options{Workspace: testWS})
	call := Call{Identity: "builtin:fs_search", Arguments: args}
	if d := s.Decide(call); d.Verdict != VerdictAllow {
		b.Fatalf("got %s (%s), want allow", d.Verdict, d.Reason)
	}
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		s.Decide(call)
	}
}

// FuzzDecide checks the invariants on arbitrary arguments: a write never
// runs unasked; when an "under" rule allows a call, encoding/json reads a
// path at or below the folder that never climbs and no key that differs
// only by case; when a built-in read is allowed, the path it decodes (as
// the tool does, case-insensitively) stays inside the workspace.
func FuzzDecide(f *testing.F) {
	for _, seed := range []string{
		`{"path":"/srv/data/x"}`, `{"path":"/srv/data/x","path":"/etc"}`, `{"Path":"/etc"}`,
		`{"path":"/srv/data/../etc"}`, `{"path":"\u002e\u002e"}`, `{"path":"a/../../b"}`,
		`{"path":"/home/ana/project/x"}`, `{"pa\u0074h":"/etc"}`, `[]`, `{"path":"/srv/data\u0000"}`,
		`{"path" : "/srv/data/a" , "x":[1,{"path":"/etc"}]}`,
	} {
		f.Add([]byte(seed))
	}
	s := NewSnapshot([]Rule{underRule("/srv/data"), {Identity: "builtin:fs_write", Class: Allow, Effect: ReadOnly}}, Options{Workspace: testWS})
	f.Fuzz(func(t *testing.T, raw []byte) {
		if d := s.Decide(Call{Identity: "builtin:fs_write", Arguments: raw}); d.Verdict == VerdictAllow {
			t.Fatalf("a write was allowed: %q", raw)
		}
		if d := s.Decide(Call{Identity: testTool, Arguments: raw}); d.Verdict == VerdictAllow {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatalf("allowed arguments that do not decode: %q: %v", raw, err)
			}
			p, ok := m["path"].(string)
			if !ok || climbs(p) || !within(path.Clean(p), "/srv/data") {
				t.Fatalf("allowed %q: path %q", raw, p)
			}
			for k := range m {
				if k != "path" && strings.EqualFold(k, "path") {
					t.Fatalf("allowed %q beside a case variant %q", raw, k)
				}
			}
		}
		if d := s.Decide(Call{Identity: "builtin:fs_read", Arguments: raw}); d.Verdict == VerdictAllow {
			var a struct{ Path string }
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatalf("allowed arguments the tool cannot decode: %q: %v", raw, err)
			}
			p := path.Clean(strings.ReplaceAll(strings.TrimSpace(a.Path), `\`, "/"))
			if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) && !within(p, testWS) {
				t.Fatalf("allowed a read of %q", a.Path)
			}
		}
	})
}

// FuzzParseArgs holds parseArgs to encoding/json: it accepts exactly the
// inputs json.Valid accepts that are objects without repeated keys, and
// finds the same top-level keys and raw values a json.Decoder reads.
func FuzzParseArgs(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` { "a" : 1 , "b":[true,false,null,{"c":-0.5e+3}] } `, `{"a":1,}`, `{"a":01}`, `{"a":"\u00zz"}`,
		`{"a":"x","a":"y"}`, `{"\u0061":1,"a":2}`, `[1]`, `"s"`, `{"a":1}x`, `{"a":"` + "\x01" + `"}`,
		"{\"a\":\"\xff\"}", `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":.5}`, `{"a":tru}`, `{"a" 1}`, `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, why := parseArgs(raw)
		valid := json.Valid(raw)
		if !valid {
			if why == "" {
				t.Fatalf("parseArgs accepted invalid JSON %q", raw)
			}
			return
		}
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.UseNumber() // a number too large for float64 is still valid JSON
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		if tok != json.Delim('{') {
			if why == "" {
				t.Fatalf("parseArgs accepted a non-object %q", raw)
			}
			return
		}
		var want args
		dup := false
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			for _, m := range want {
				dup = dup || m.key == k.(string)
			}
			want = append(want, member{key: k.(string), val: v})
		}
		if dup {
			if why == "" {
				t.Fatalf("parseArgs accepted repeated keys in %q", raw)
			}
			return
		}
		if why != "" {
			t.Fatalf("parseArgs refused %q: %s", raw, why)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: got %d members, want %d", raw, len(got), len(want))
		}
		for i := range got {
			if got[i].key != want[i].key || string(got[i].val) != string(want[i].val) {
				t.Fatalf("%q member %d: got %q=%s, want %q=%s", raw, i, got[i].key, got[i].val, want[i].key, want[i].val)
			}
		}
	})
}
