package ruleedit

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"vouch/policy"
	"vouch/tui/kit"
)

// TestRuleEditorDoesNotOfferWhatSavingRefuses (SPEC D1; issue 28 item 10):
// for builtin:fs_write the class row offers ask and block only, says why,
// and no key reaches allow; an MCP tool and a built-in read are offered
// allow.
func TestRuleEditorDoesNotOfferWhatSavingRefuses(t *testing.T) {
	c := kit.Common{Width: 80, Height: 18, Styles: kit.DefaultStyles(nil, kit.DefaultTheme()), Now: func() time.Time { return t0 }}
	e := New(c, DefaultKeyMap(), &saver{}, FromCall("builtin:fs_write", `{"path":"a.md","content":"x"}`, ""), 0)
	row := classRow(e)
	if strings.Count(row, "allow") != 1 || !strings.Contains(row, "block") ||
		!strings.Contains(row, "anything that writes asks: no allow") {
		t.Errorf("the class row for fs_write is %q; want ask and block, and why", row)
	}
	for range 4 {
		next, _, _ := e.Update(keyNamed("right"))
		e = next.(Editor)
		if got := e.draft.classes()[e.class]; got == policy.Allow {
			t.Fatal("a key chose allow for fs_write")
		}
	}
	for _, id := range []string{csvIdentity, "builtin:fs_read"} {
		if !strings.Contains(classRow(New(c, DefaultKeyMap(), &saver{}, FromCall(id, `{}`, ""), 0)), " allow ") {
			t.Errorf("%s is not offered allow", id)
		}
	}
}

// classRow is the editor's line of classes, without styles.
func classRow(e Editor) string {
	for _, l := range strings.Split(ansi.Strip(e.View()), "\n") {
		if strings.Contains(l, "class ") {
			return l
		}
	}
	return ""
}
