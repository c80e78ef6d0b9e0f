package ruleedit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/tui/kit"
)

// lockedSaver refuses every rule the way a managed lock does.
type lockedSaver struct{ why string }

func (s lockedSaver) SaveRule(context.Context, policy.Rule) error { return errors.New(s.why) }

// SPEC N3 (issue 27): the rule editor says why a choice is locked — the
// managed lock's sentence stays under the form, which stays open, and
// nothing closes as if the rule were stored.
func TestRuleEditorSaysWhyALockRefuses(t *testing.T) {
	c := kit.Common{Width: 100, Height: 24, Styles: kit.DefaultStyles(nil, kit.DefaultTheme()), Now: func() time.Time { return t0 }}
	why := "tool mcp:data:export_csv: the lock says ask, not allow, so the managed lock /etc/vouch/vouch.lock refuses it; tightening is always allowed"
	var md kit.Modal = New(c, DefaultKeyMap(), lockedSaver{why}, FromCall(csvIdentity, csvArgs, ""), 0).SetSize(100, 24)
	md, _, _ = md.Update(keyNamed("right")) // allow
	md, action, cmd := md.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil || action != nil {
		t.Fatalf("enter: action %v, cmd %v; want the save Cmd", action, cmd)
	}
	md, action, _ = md.Update(cmd())
	if action != nil {
		t.Fatalf("a refused save closed the editor: %v", action)
	}
	view := strings.Join(strings.Fields(md.View()), " ")
	if !strings.Contains(view, "the managed lock /etc/vouch/vouch.lock refuses it") {
		t.Errorf("the editor does not say why:\n%s", md.View())
	}
}
