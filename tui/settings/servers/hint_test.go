package servers

import (
	"errors"
	"strings"
	"testing"

	"vouch/tui/kit/kittest"

	"vouch/tui/settings"
)

// TestEditorErrorWraps (SPEC B1, L1; issue 28 item 8): at 80x24 a long
// save error under the add-server form is wrapped whole, never cut with
// "…".
func TestEditorErrorWraps(t *testing.T) {
	b := backend()
	long := "remove the api_key query parameter from the URL and give the key as the secret header instead " +
		"(vouch server add NAME --url URL --header X-Api-Key --secret-stdin), so it is kept in the OS keyring " +
		"and never stored in the database, written to a log or shown back"
	b.errs = map[string]error{"save": errors.New(long)}
	e := openEditor(b, settings.ServerView{}, 80, 24)
	e = typed(t, e, "files")
	e = typed(t, update(t, e, keyTab), "https://files.example/mcp?api_key=x")
	e, _, cmd := e.Update(keyEnter)
	e = update(t, e, cmd())
	v := kittest.Unframed(e.View())
	if !strings.Contains(v, "written to a log or shown back.") {
		t.Errorf("the error is not whole:\n%s", e.View())
	}
}
