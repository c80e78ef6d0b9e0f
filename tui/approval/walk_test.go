package approval

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
)

// shown is what the rows say when fully unfolded: depth, kind and text.
type shown struct {
	depth int
	note  bool
	text  string
}

func fullRows(rows []argRow) []shown {
	out := make([]shown, len(rows))
	for i, r := range rows {
		out[i] = shown{r.depth, r.note, r.full()}
	}
	return out
}

// decoderRows lays raw out the encoding/json way, or reports it invalid.
func decoderRows(raw string) ([]argRow, bool) {
	var p argsPreview
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(raw)))
	dec.UseNumber()
	if err := p.value(dec, 0, ""); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return p.rows, true
}

// walkerRows lays raw out with the one-pass walker, or reports it declined.
func walkerRows(raw string) ([]argRow, bool) {
	var p argsPreview
	w := walker{b: strings.TrimSpace(raw), p: &p}
	if !w.value(0, "") || !w.end() {
		return nil, false
	}
	return p.rows, true
}

var walkSeeds = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":true,"d":false}`, `"just a string"`, `-0.5e+10`,
	`{"a":"x","a":"y"}`, `{"p\u0061th":"/etc","path":"/srv"}`, `{"s":"\u001b[2J\u202e\ud83d\ude00"}`,
	`{"a":01}`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":tru}`, `{"a":"\x"}`, `{"a":1} x`, `{"a":"unterminated}`,
	` { "k" : [ ] , "m" : { } } `, `{"n":1.}`, `{"n":-}`, `{"n":1e}`, `[[[[[]]]]]`, `{"a":"é日本\u00a0"}`,
}

// TestWalkerMatchesDecoder: for valid JSON the walker lays out exactly the
// rows encoding/json's token reader does; whatever it declines, the slow
// path handles, and it never accepts what encoding/json rejects.
func TestWalkerMatchesDecoder(t *testing.T) {
	long := `{"content":"` + strings.Repeat(`line \u001b[31m\"q\" café\n`, 3000) + `","after":1}`
	pairs := `["` + strings.Repeat(`\ud83d\ude00`, 3000) + `"]`
	for _, raw := range append(walkSeeds, long, pairs) {
		want, valid := decoderRows(raw)
		got, ok := walkerRows(raw)
		if ok && !valid {
			t.Errorf("%.60q: the walker accepted what encoding/json rejects", raw)
		}
		if ok && !reflect.DeepEqual(fullRows(got), fullRows(want)) {
			t.Errorf("%.60q: rows differ\n got %+v\nwant %+v", raw, fullRows(got), fullRows(want))
		}
		if valid && !ok && !strings.Contains(raw, `\x`) {
			t.Logf("%.60q: valid JSON declined by the walker (slow path)", raw)
		}
	}
}

func FuzzWalkerMatchesDecoder(f *testing.F) {
	for _, s := range walkSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		want, valid := decoderRows(raw)
		got, ok := walkerRows(raw)
		if ok && !valid {
			t.Fatalf("the walker accepted what encoding/json rejects: %q", raw)
		}
		if ok && !reflect.DeepEqual(fullRows(got), fullRows(want)) {
			t.Fatalf("rows differ for %q\n got %+v\nwant %+v", raw, fullRows(got), fullRows(want))
		}
	})
}
