package safetext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEscapeJSON: every Hidden code point leaves as a \u escape, the value
// decodes back to the original, and clean JSON is returned unchanged
// (issue 14 item 5).
func TestEscapeJSON(t *testing.T) {
	hostile := []string{"csi\u009b31m", "osc\u009d0;pwned\u009c", "rlo\u202eevil", "zero\u200bwidth", "\ufeffbom",
		"tag\U000E0041\U000E007F", "del\x7f", "ls\u2028ps\u2029", "lri\u2066x\u2069", "ok ünïcode 日本 👩‍💻"}
	for _, s := range hostile {
		enc, err := json.Marshal(map[string]string{"v": s})
		if err != nil {
			t.Fatal(err)
		}
		out := EscapeJSON(enc)
		for _, r := range string(out) {
			if Hidden(r) {
				t.Errorf("%q: %U left raw in %s", s, r, out)
			}
		}
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil || back["v"] != s {
			t.Errorf("%q: decodes to %q, %v", s, back["v"], err)
		}
	}
	clean := []byte(`{"a": "plain ünïcode", "b": [1, 2]}`)
	if out := EscapeJSON(clean); &out[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
	if out := string(EscapeJSON([]byte("\"\xff\""))); !utf8.ValidString(out) || !strings.Contains(out, "\ufffd") {
		t.Errorf("invalid UTF-8: %q", out)
	}
}

// TestMixedScripts: Latin names with Cyrillic or Greek look-alikes are
// flagged; single-script names, digits and Japanese are not.
func TestMixedScripts(t *testing.T) {
	for name, want := range map[string]bool{
		"lookup": false, "l\u043e\u043ekup": true, "get_\u0440rice": true, "\u03b1lpha_tool": true,
		"поиск": false, "search_v2": false, "検索する": false, "ツール検索": false, "": false,
	} {
		if got := MixedScripts(name) != ""; got != want {
			t.Errorf("MixedScripts(%q) = %q, want flagged %v", name, MixedScripts(name), want)
		}
	}
}
