package policy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// htmlDef is a definition full of what encoders disagree on: '<', '>' and
// '&' (Playwright MCP's browser_evaluate describes "() => { … }"), U+2028
// and U+2029, and non-ASCII text, in the description and the schemas.
var htmlDef = Definition{Name: "browser_evaluate", Title: "Evaluate <JS> & more",
	Description: "Evaluate `() => { /* code */ }` or `(element) => { ... }` when a < b && c > d;\u2028next\u2029 — café, 日本語, 🙂.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"function":{"type":"string","description":"() => { /* code */ } <b>&amp;</b> \u2028 é"}}}`),
	Annotations: json.RawMessage(`{"title":"<evaluate> & go"}`)}

// TestPinSurvivesEveryEncoding (SPEC D8; issue 24 item 1): a pinned
// definition encoded by json.Marshal (which HTML-escapes '<', '>' and '&'
// as \u003c, \u003e and \u0026), by an encoder that does not, and with
// every non-ASCII character escaped, decodes to the same canonical bytes,
// which digest to the pin: the rule stays valid and applies.
func TestPinSurvivesEveryEncoding(t *testing.T) {
	pin := mustPin(t, htmlDef)
	if !strings.Contains(string(pin.Definition), "() => {") || !strings.Contains(string(pin.Definition), "café") {
		t.Fatalf("the canonical form escapes more than JSON requires: %s", pin.Definition)
	}
	r := Rule{Identity: testTool, Class: Allow, Effect: ReadOnly, Pin: &pin}
	escaped, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(escaped, []byte(`\u003e`)) {
		t.Fatalf("json.Marshal did not HTML-escape, so this test tests nothing: %s", escaped)
	}
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	var ascii strings.Builder
	for _, c := range string(escaped) {
		if c > 0x7e {
			for _, u := range utf16(c) {
				ascii.WriteString(`\u` + strings.ToLower(hex4(u)))
			}
			continue
		}
		ascii.WriteRune(c)
	}
	for name, raw := range map[string][]byte{"html-escaped": escaped, "plain": plain.Bytes(), "ascii-only": []byte(ascii.String())} {
		var back Rule
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if back.Pin == nil || back.Pin.Definition != pin.Definition || back.Pin.Digest != pin.Digest {
			t.Errorf("%s: pin %+v, want %+v byte for byte", name, back.Pin, pin)
		}
		if err := ValidateRule(back); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		s := NewSnapshot([]Rule{back}, Options{})
		if d := s.Decide(Call{Identity: testTool, Arguments: json.RawMessage(`{}`), Definition: pin.Digest}); d.Verdict != VerdictAllow {
			t.Errorf("%s: %s (%s), want allow", name, d.Verdict, d.Reason)
		}
	}
	if got, err := CanonicalOf(escaped[bytes.Index(escaped, []byte(`"definition":`))+len(`"definition":`) : len(escaped)-2]); err != nil || got != pin.Definition {
		t.Errorf("CanonicalOf the escaped stored bytes = %q, %v; want the canonical form", got, err)
	}
}

func hex4(u uint16) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[u>>12], digits[u>>8&15], digits[u>>4&15], digits[u&15]})
}

func utf16(c rune) []uint16 {
	if c < 0x10000 {
		return []uint16{uint16(c)}
	}
	c -= 0x10000
	return []uint16{uint16(0xd800 + c>>10), uint16(0xdc00 + c&0x3ff)}
}

// TestRuleBeforeDiscovery (SPEC D8; issue 24 item 1): a rule set for a
// tool no server served yet pins nothing. Once a server serves the tool,
// the rule does not apply to a definition nobody saw: the call asks,
// showing it, its effect is Mutating, and listings mark it; a block still
// blocks, and a built-in rule (which pins nothing) applies as written.
func TestRuleBeforeDiscovery(t *testing.T) {
	served := mustPin(t, rugPulled()).Digest
	s := NewSnapshot([]Rule{
		{Identity: testTool, Class: Allow, Effect: ReadOnly},
		{Identity: "mcp:" + testServer + ":gone", Class: Block, Effect: Mutating},
		{Identity: "builtin:fs_read", Class: Allow, Effect: ReadOnly},
	}, Options{})
	d := s.Decide(Call{Identity: testTool, Arguments: json.RawMessage(`{}`), Definition: served})
	if d.Verdict != VerdictAsk || d.Reason != ReasonUnseen || d.Effect != Mutating || d.Changed == nil || d.Changed.Pinned != "" {
		t.Errorf("served for the first time: %+v, want ask, mutating, %q, a change from nothing", d, ReasonUnseen)
	}
	if !s.Changed(testTool, served) || s.Summary(testTool, served) != "ask ("+MarkUnseen+")" || s.Effect(testTool, served) != Mutating {
		t.Errorf("listings: changed %v, summary %q, effect %s", s.Changed(testTool, served), s.Summary(testTool, served), s.Effect(testTool, served))
	}
	if d := s.Decide(Call{Identity: "mcp:" + testServer + ":gone", Arguments: json.RawMessage(`{}`), Definition: served}); d.Verdict != VerdictBlock {
		t.Errorf("a block before discovery: %s, want block", d.Verdict)
	}
	if d := s.Decide(Call{Identity: "builtin:fs_read", Arguments: json.RawMessage(`{"path":"a"}`), Definition: served}); d.Verdict != VerdictAllow {
		t.Errorf("a built-in rule: %s (%s), want allow", d.Verdict, d.Reason)
	}
}

// TestPinCoversVisibility (SPEC D8, J2; issue 24 item 1): who may call a
// tool is part of what the person classified. An app-only tool that the
// server then also exposes to the model serves another definition; a tool
// without MCP Apps visibility digests as it always did.
func TestPinCoversVisibility(t *testing.T) {
	plain := mustPin(t, filesDef)
	if strings.Contains(string(plain.Definition), "visibility") {
		t.Fatalf("a tool without visibility gained a key: %s", plain.Definition)
	}
	appOnly, both, reordered, nobody := filesDef, filesDef, filesDef, filesDef
	appOnly.Visibility = []string{"app"}
	both.Visibility = []string{"model", "app"}
	reordered.Visibility = []string{"app", "model"}
	nobody.Visibility = []string{}
	a, b, r, n := mustPin(t, appOnly), mustPin(t, both), mustPin(t, reordered), mustPin(t, nobody)
	if a.Digest == b.Digest || a.Digest == plain.Digest || n.Digest == plain.Digest || n.Digest == a.Digest {
		t.Errorf("visibility does not count: app %s, both %s, none %s, unset %s", a.Digest, b.Digest, n.Digest, plain.Digest)
	}
	if b.Digest != r.Digest {
		t.Errorf("the order of the audiences counts: %s vs %s", b.Definition, r.Definition)
	}
	back, err := ParseCanonical(a.Definition)
	if err != nil || mustPin(t, back).Digest != a.Digest {
		t.Errorf("ParseCanonical lost the visibility: %+v, %v", back, err)
	}
}
