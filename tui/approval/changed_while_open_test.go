package approval

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"vouch/tui/kit"
)

// fakeWatcher describes and watches one tool; its answers are the test's.
type fakeWatcher struct{ desc ToolDescription }

func (f fakeWatcher) DescribeTool(context.Context, string) (ToolDescription, error) {
	return f.desc, nil
}

func (f fakeWatcher) WaitToolChange(ctx context.Context, _, _ string) (ToolDescription, error) {
	<-ctx.Done()
	return ToolDescription{}, ctx.Err()
}

// TestPaneShowsAToolChangedWhileOpen (SPEC D8; issue 24 item 1): a pane
// open while its tool's definition changes watches it, and when it
// changes shows what the tool says now and says that allowing asks again;
// a watch that ends with nothing changed watches on; an older watch's
// answer changes nothing.
func TestPaneShowsAToolChangedWhileOpen(t *testing.T) {
	c := kit.Common{Width: 100, Height: 40, Styles: kit.DefaultStyles(lipgloss.DefaultRenderer(), kit.DefaultTheme()), Now: func() time.Time { return time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC) }}
	w := fakeWatcher{desc: ToolDescription{ServerName: "files", ServerHost: "127.0.0.1:4100", Claims: []string{"readOnlyHint: true"}, Digest: "d1"}}
	var md kit.Modal = New(c, DefaultKeyMap(), Request{Call: csvCall, Tool: csvTool}, 1, 1, Options{Describer: w, Watcher: w})
	identity := csvTool.Identity

	md, _, cmd := md.Update(DescribedMsg{Identity: identity, Desc: w.desc})
	if cmd == nil {
		t.Fatal("a described pane does not watch its tool")
	}
	md, _, cmd = md.Update(ToolChangedMsg{Identity: identity, Digest: "d1"})
	if cmd == nil || md.(Pane).ChangedWhileOpen() {
		t.Fatal("a watch that ended with nothing changed: the pane stopped watching, or says it changed")
	}

	now := ToolDescription{ServerName: "files", ServerHost: "127.0.0.1:4100", Claims: []string{"destructiveHint: true"}, Digest: "d2"}
	md, _, cmd = md.Update(ToolChangedMsg{Identity: identity, Digest: "d1", Changed: true, Desc: now})
	a := md.(Pane)
	if !a.ChangedWhileOpen() || cmd == nil {
		t.Fatalf("after the change: changed %v, watching %v", a.ChangedWhileOpen(), cmd != nil)
	}
	view := a.SetSize(100, 40).View()
	for _, want := range []string{"destructiveHint: true", "allowing asks again"} {
		if !strings.Contains(view, want) {
			t.Errorf("the pane does not show %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "readOnlyHint: true") {
		t.Errorf("the pane still shows the old claims:\n%s", view)
	}

	// The older watch (digest d1) answering late changes nothing.
	md, _, cmd = md.Update(ToolChangedMsg{Identity: identity, Digest: "d1", Changed: true, Desc: w.desc})
	if cmd != nil || strings.Contains(md.View(), "readOnlyHint: true") {
		t.Error("an older watch's answer was applied")
	}
}
