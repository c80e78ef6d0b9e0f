package servers

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
)

func openEditor(b Backend, v settings.ServerView, w, h int) kit.Modal {
	return newEditor(kittest.Common(w, h), DefaultKeyMap(), b, v).SetSize(w, h)
}

func typed(t *testing.T, m kit.Modal, s string) kit.Modal {
	t.Helper()
	for _, r := range s {
		m = update(t, m, letter(r))
	}
	return m
}

// secretOf says what a saved Input does with the secret.
func secretOf(in Input) string {
	if in.Secret == nil {
		return "kept"
	}
	return fmt.Sprintf("%q", *in.Secret)
}

// TestEditorSavesExactlyWhatWasTyped: enter saves the fields as typed —
// the secret masked on screen and sent once — and closes; ctrl+t saves and
// opens the test report, never activation; while a save is out no key
// but esc acts; ctrl+r removes a stored secret on save; a failed save is
// one sentence and keeps every field (SPEC B1, B2).
func TestEditorSavesExactlyWhatWasTyped(t *testing.T) {
	t.Run("add, save and close", func(t *testing.T) {
		b := backend()
		e := openEditor(b, settings.ServerView{}, 80, 18)
		e = typed(t, e, "files")
		e = typed(t, update(t, e, keyTab), "https://files.example/mcp")
		e = typed(t, update(t, e, keyTab), "X-Api-Key")
		e = typed(t, update(t, e, keyTab), "hunter2")
		if v := e.View(); strings.Contains(v, "hunter2") || !strings.Contains(v, "•••••••") {
			t.Fatalf("the secret shows as typed:\n%s", v)
		}
		e, action, cmd := e.Update(keyEnter)
		if action != nil || cmd == nil || !strings.Contains(e.View(), "Saving…") {
			t.Fatalf("enter: action %#v, cmd %v", action, cmd != nil)
		}
		for _, k := range []tea.KeyMsg{keyEnter, keyCtrlT, letter('z')} {
			if _, _, again := e.Update(k); again != nil {
				t.Errorf("%s acted while saving", k)
			}
		}
		done := cmd()
		calls := b.got()
		if len(calls) != 1 || calls[0].op != "save" {
			t.Fatalf("the backend got %v, want one save", calls)
		}
		in := calls[0].in
		if in.ID != "" || in.Name != "files" || in.URL != "https://files.example/mcp" || in.HeaderName != "X-Api-Key" || secretOf(in) != `"hunter2"` {
			t.Errorf("saved %+v with secret %s", in, secretOf(in))
		}
		if _, action, _ := e.Update(done); action != (kit.CloseModal{}) {
			t.Errorf("after the save: action %#v, want close", action)
		}
	})
	t.Run("ctrl+t saves and opens the test, not activation", func(t *testing.T) {
		b := backend()
		e := typed(t, openEditor(b, settings.ServerView{}, 80, 18), "files")
		e, _, cmd := e.Update(keyCtrlT)
		_, action, _ := e.Update(cmd())
		r, ok := action.(kit.OpenModal)
		if !ok {
			t.Fatalf("ctrl+t: action %#v, want the test report", action)
		}
		if rep := r.Modal.(Report); rep.Server().ID != "s-new" || rep.Server().Active {
			t.Errorf("the report is for %+v", rep.Server())
		}
		for _, c := range b.got() {
			if c.op == "active" {
				t.Errorf("saving activated: %v", b.got())
			}
		}
	})
	t.Run("ctrl+t needs a name", func(t *testing.T) {
		e := openEditor(backend(), settings.ServerView{}, 80, 18)
		if _, _, cmd := e.Update(keyCtrlT); cmd != nil {
			t.Error("ctrl+t saved a server without a name")
		}
	})
	t.Run("an edit keeps the stored secret, ctrl+r removes it", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			keys []tea.KeyMsg
			want string
		}{
			{"kept", nil, "kept"},
			{"removed", []tea.KeyMsg{keyCtrlR}, `""`},
			{"kept again", []tea.KeyMsg{keyCtrlR, keyCtrlR}, "kept"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				b := backend()
				e := openEditor(b, b.servers[1], 80, 18)
				if !strings.Contains(e.View(), SecretStored) {
					t.Errorf("the editor does not say a secret is stored:\n%s", e.View())
				}
				for _, k := range tc.keys {
					e = update(t, e, k)
				}
				_, _, cmd := e.Update(keyEnter)
				cmd()
				if in := b.got()[0].in; in.ID != "s-2" || secretOf(in) != tc.want {
					t.Errorf("saved %s with secret %s, want %s", in.ID, secretOf(in), tc.want)
				}
			})
		}
	})
	t.Run("a failed save keeps the fields", func(t *testing.T) {
		b := backend()
		b.errs["save"] = errors.New("the URL must be https or loopback")
		e := typed(t, openEditor(b, settings.ServerView{}, 80, 18), "files")
		e, _, cmd := e.Update(keyEnter)
		e, action, _ := e.Update(cmd())
		if v := e.View(); action != nil || !strings.Contains(v, "✗ Could not save the server: the URL must be https or loopback.") || e.(Editor).Value(fieldName) != "files" {
			t.Errorf("failed save: action %#v\n%s", action, v)
		}
		if _, _, again := e.Update(keyEnter); again == nil {
			t.Error("enter does not save again after a failure")
		}
	})
}

// TestEditorNeutralisesStoredFields: a stored name, URL and header name
// with control sequences, and a failure quoting them, are shown
// neutralised (SPEC D3).
func TestEditorNeutralisesStoredFields(t *testing.T) {
	b := backend()
	b.errs["save"] = errors.New(kittest.Hostile)
	e := openEditor(b, settings.ServerView{ID: "s-h", Name: kittest.Hostile, URL: kittest.Hostile, HeaderName: kittest.Hostile, HasSecret: true}, 80, 18)
	kittest.Clean(t, e.View())
	e, _, cmd := e.Update(keyEnter)
	kittest.Clean(t, update(t, e, cmd()).View())
}

// TestEditorFits: the editor, with long values and a long failure, fits
// the area above the input at 80x24 and 60x16.
func TestEditorFits(t *testing.T) {
	b := backend()
	b.errs["save"] = errors.New(strings.Repeat("the server refused the URL ", 8))
	v := settings.ServerView{ID: "s-1", Name: strings.Repeat("name ", 20), URL: "https://" + strings.Repeat("host.", 40), HeaderName: "Authorization", HasSecret: true}
	for _, sz := range kittest.Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			e := openEditor(b, v, sz.W, sz.H)
			kittest.Fits(t, e.View(), sz.W, sz.H)
			e, _, cmd := e.Update(keyEnter)
			e = update(t, e, cmd())
			kittest.Fits(t, e.View(), sz.W, sz.H)
			if !strings.Contains(e.View(), "✗ Could not save") {
				t.Errorf("the failure does not show:\n%s", e.View())
			}
		})
	}
}
