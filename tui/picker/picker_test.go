package picker

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

var models = []agent.ModelInfo{
	{ID: "qwen2.5-7b", ContextWindow: 32768, WindowSource: "server"},
	{ID: "llama3.1-8b", ContextWindow: 8192},
	{ID: kittest.Hostile},
}

func typed(p Model, s string) Model {
	for _, r := range s {
		md, _, _ := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		p = md.(Model)
	}
	return p
}

func press(p Model, k tea.KeyType) (Model, kit.Action) {
	md, a, _ := p.Update(tea.KeyMsg{Type: k})
	return md.(Model), a
}

// TestPickerFiltersAndSelects: the cursor starts on the model in use,
// typing filters case-insensitively, enter answers the model under the
// cursor, esc closes.
func TestPickerFiltersAndSelects(t *testing.T) {
	p := New(kittest.Common(80, 24), DefaultKeyMap(), "llama3.1-8b", nil, 0)
	md, _, _ := p.Update(ModelsMsg{Models: models})
	p = md.(Model).SetSize(80, 24).(Model)
	if p.Selected() != "llama3.1-8b" || p.Shown() != 3 {
		t.Fatalf("opened on %q with %d shown, want the model in use and all 3", p.Selected(), p.Shown())
	}
	p = typed(p, "QWEN")
	if p.Shown() != 1 || p.Selected() != "qwen2.5-7b" {
		t.Fatalf("filter QWEN: %d shown, cursor on %q", p.Shown(), p.Selected())
	}
	p, a := press(p, tea.KeyEnter)
	if sel, ok := a.(kit.SelectModel); !ok || sel.Model.ID != "qwen2.5-7b" {
		t.Errorf("enter answered %#v, want SelectModel of qwen2.5-7b", a)
	}
	p = typed(p, "zzz")
	if _, a := press(p, tea.KeyEnter); a != nil {
		t.Errorf("enter with nothing shown answered %#v, want nothing", a)
	}
	if !strings.Contains(ansi.Strip(p.View()), "No model matches the filter.") {
		t.Errorf("empty filter result not said:\n%s", p.View())
	}
	if _, a := press(p, tea.KeyEsc); a != (kit.CloseModal{}) {
		t.Errorf("esc answered %#v, want CloseModal", a)
	}
}

// TestPickerView: loading, a failure in one sentence, the window and its
// source; a hostile model ID is drawn neutralised and the pane fits.
func TestPickerView(t *testing.T) {
	p := New(kittest.Common(60, 16), DefaultKeyMap(), "", nil, 0).SetSize(60, 16).(Model)
	if v := ansi.Strip(p.View()); !strings.Contains(v, "Loading models…") {
		t.Errorf("before the list: %s", v)
	}
	md, _, _ := p.Update(ModelsMsg{Err: errors.New("could not list models: connection refused")})
	if v := ansi.Strip(md.View()); !strings.Contains(v, "Could not list models: connection refused.") {
		t.Errorf("failure not said: %s", v)
	}
	md, _, _ = p.Update(ModelsMsg{Models: models})
	v := md.View()
	kittest.Clean(t, v)
	kittest.Fits(t, v, 60, 16)
	if s := ansi.Strip(v); !strings.Contains(s, "33k ctx · server") || !strings.Contains(s, "3 of 3 models") {
		t.Errorf("list: %s", s)
	}
}
