package ruleedit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vouch/tui/kit/kittest"
)

// TestRuleEditorView (SPEC D3, D6, L6): at the sizes the root gives a
// modal — down to the 9 rows of a 60x16 terminal, where the editor takes
// its compact form — it fits, names the tool, shows a constraint, the
// note and when the rule applies, and never draws the escape an argument
// carries; a refusal takes the footer's place without cutting the frame.
func TestRuleEditorView(t *testing.T) {
	d := FromCall(csvIdentity, csvArgs, "")
	for _, sz := range append(kittest.Sizes, struct{ W, H int }{60, 9}) {
		e := New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), &saver{}, d, 0).SetSize(sz.W, sz.H).(Editor)
		for _, err := range []string{"", "A rule for this tool exists already; edit it in Settings › Policy."} {
			e.err = err
			v := e.View()
			kittest.Clean(t, v)
			kittest.Fits(t, v, sz.W, sz.H)
			flat := ansi.Strip(v)
			want := []string{"export_csv", "mcp:", "class", "effect", "[ ] path", "note", "╰"}
			if err == "" {
				want = append(want, "Applies to new runs")
			} else {
				want = append(want, "✗ A rule for this tool exists already")
			}
			for _, w := range want {
				if !strings.Contains(flat, w) {
					t.Errorf("%dx%d (error %q): the editor lacks %q:\n%s", sz.W, sz.H, err, w, flat)
				}
			}
		}
	}
}

// TestRuleEditorCompactKeepsCursorInView: in the compact form the
// constraint with the cursor is the one shown, and an identity too long
// for its line keeps its start and the tool's name.
func TestRuleEditorCompactKeepsCursorInView(t *testing.T) {
	var md = New(kittest.Common(60, 9), DefaultKeyMap(), &saver{}, FromCall(csvIdentity, csvArgs, ""), 0).SetSize(60, 9)
	for _, k := range []string{"tab", "tab", "tab", "tab", "tab", "tab"} { // past path's switch and values to mode's, then url's switch
		md, _, _ = md.Update(keyNamed(k))
	}
	if v := ansi.Strip(md.View()); !strings.Contains(v, "› [ ] url") {
		t.Errorf("the cursor's constraint is not shown:\n%s", v)
	}
	for in, want := range map[string]string{"mcp:abcdef:export_csv": "mcp:ab…t_csv", "builtin:x": "builtin:x"} {
		if got := middleCut(in, 12); got != want {
			t.Errorf("middleCut(%q, 12) = %q, want %q", in, got, want)
		}
	}
}
