package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vouch/tui/settings"
	"vouch/tui/settings/profiles"
	"vouch/tui/settings/tools"
)

// openProfileTools shows the tool selection pane of daily-report, loaded.
func openProfileTools(t *testing.T, f *fakeWorkflows) Model {
	t.Helper()
	m, _ := startWorkflows(t, f)
	return pushAndLoad[tools.ListedMsg](t, m, profiles.NewTools(m.common.Common, m.profileKeys(), f, "daily-report"))
}

// cursorTo moves the tools pane's cursor to the tool named name.
func cursorTo(t *testing.T, m Model, name string) Model {
	t.Helper()
	for range 10 {
		p := topModal[profiles.ToolsPane](t, m).Page()
		if sel, ok := p.Selected(); ok && sel.Name == name {
			return m
		}
		m, _ = update(m, keyDown)
	}
	t.Fatalf("no tool %s in the pane", name)
	return m
}

// TestProfileToolSelection: selecting one tool of three leaves the other
// two unavailable to the profile's runs, as Profiles reports them; the
// switch moves only once SetProfileTool answered (SPEC H2, L2).
func TestProfileToolSelection(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openProfileTools(t, f)
	m = cursorTo(t, m, "read_file")
	m, cmd := update(m, keySpace)
	if p := topModal[profiles.ToolsPane](t, m).Page(); !p.Pending("mcp:s1:read_file") || p.Tools()[1].Enabled {
		t.Fatalf("before SetProfileTool answered: pending %v, enabled %v; want pending and still off", p.Pending("mcp:s1:read_file"), p.Tools()[1].Enabled)
	}
	m, _ = update(m, awaitMsg[tools.ToggledMsg](t, cmd))

	if got, want := selectedTools(t, f, "daily-report"), []string{"mcp:s1:read_file"}; !slices.Equal(got, want) {
		t.Errorf("profile allowlist = %v, want %v", got, want)
	}
	sel, err := f.ProfileTools(t.Context(), "daily-report")
	if err != nil {
		t.Fatal(err)
	}
	for _, tv := range sel.Tools {
		if tv.ServerID == "s1" && tv.Name != "read_file" && tv.Enabled {
			t.Errorf("%s is on; only read_file was selected", tv.Name)
		}
	}
	view := m.View()
	for _, want := range []string{"[x] read_file", "[ ] write_file", "[ ] list_dir", "read_file is selected for this profile.",
		"1 selected for this profile", "210 tok", "1.8k tok"} {
		if !strings.Contains(view, want) {
			t.Errorf("pane lacks %q:\n%s", want, view)
		}
	}

	// Off again: the notice says the model no longer has it.
	m, cmd = update(m, keySpace)
	m, _ = update(m, awaitMsg[tools.ToggledMsg](t, cmd))
	if got := selectedTools(t, f, "daily-report"); len(got) != 0 {
		t.Errorf("after deselecting, allowlist = %v, want empty", got)
	}
	if !strings.Contains(m.View(), "read_file is not available to this profile.") {
		t.Errorf("no notice of the deselection:\n%s", m.View())
	}
	_, calls, _, _ := f.recorded()
	want := []toggleCall{{"mcp:s1:read_file", true}, {"mcp:s1:read_file", false}}
	if !slices.Equal(calls, want) {
		t.Errorf("SetProfileTool calls = %v, want %v", calls, want)
	}
}

// TestProfileToolFilter: typing filters by name, title or server at once;
// the switch acts on the tool under the cursor of the filtered list.
func TestProfileToolFilter(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openProfileTools(t, f)
	m, _ = update(m, keyRune('/'))
	m = typeText(m, "wri")
	p := topModal[profiles.ToolsPane](t, m).Page()
	if len(p.Visible()) != 1 || p.Visible()[0].Name != "write_file" {
		t.Fatalf("filter wri shows %v, want write_file only", p.Visible())
	}
	if strings.Contains(m.View(), "list_dir") {
		t.Errorf("filtered pane still shows list_dir:\n%s", m.View())
	}
	m, _ = update(m, keyEnter) // done filtering, the filter stays
	m, cmd := update(m, keySpace)
	m, _ = update(m, awaitMsg[tools.ToggledMsg](t, cmd))
	if got, want := selectedTools(t, f, "daily-report"), []string{"mcp:s1:write_file"}; !slices.Equal(got, want) {
		t.Errorf("allowlist = %v, want %v", got, want)
	}
	// By server name: "files" matches its three tools, not the built-in.
	m, _ = update(m, keyEsc) // clears the filter
	m, _ = update(m, keyRune('/'))
	m = typeText(m, "files")
	if p := topModal[profiles.ToolsPane](t, m).Page(); len(p.Visible()) != 3 {
		t.Errorf("filter files shows %d tools, want 3", len(p.Visible()))
	}
}

// TestProfileToolToggleFails: a refusal leaves the switch as it was and
// says why in one sentence.
func TestProfileToolToggleFails(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.toolErr = errors.New("the profile changed meanwhile; reload")
	m := openProfileTools(t, f)
	m = cursorTo(t, m, "list_dir")
	m, cmd := update(m, keySpace)
	m, _ = update(m, awaitMsg[tools.ToggledMsg](t, cmd))
	p := topModal[profiles.ToolsPane](t, m).Page()
	if tv, _ := p.Selected(); tv.Enabled || p.PendingCount() != 0 {
		t.Errorf("after a refusal: enabled %v, pending %v; want off, none pending", tv.Enabled, p.PendingCount())
	}
	if !strings.Contains(m.View(), "Could not select the tool: the profile changed meanwhile; reload.") {
		t.Errorf("no error sentence:\n%s", m.View())
	}
}

// TestToolPagesKeepTheirScopes: a result for the conversation's tools does
// not reach a profile's pane, and the other way round.
func TestToolPagesKeepTheirScopes(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openProfileTools(t, f)
	before := topModal[profiles.ToolsPane](t, m).Page().Tools()
	m, _ = update(m, tools.ListedMsg{Seq: 1, Tools: []settings.ToolView{{Identity: "mcp:x:y", Name: "y"}}})
	if after := topModal[profiles.ToolsPane](t, m).Page().Tools(); len(after) != len(before) {
		t.Errorf("a conversation tools.ListedMsg replaced the profile's tools: %d → %d", len(before), len(after))
	}
}

// flat is a frame's text with the box drawing, line breaks and runs of
// spaces gone, so that a test can find a sentence the frame wrapped.
func flat(view string) string {
	var words []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		l = strings.Trim(l, " │╭╮╰╯─")
		words = append(words, strings.Fields(l)...)
	}
	return strings.Join(words, " ")
}

// openEditor shows the profile editor for name ("" : new), loaded.
func openEditor(t *testing.T, f *fakeWorkflows, name string) Model {
	t.Helper()
	m, _ := startWorkflows(t, f)
	return pushAndLoad[profiles.FormMsg](t, m, profiles.NewEditor(m.common.Common, m.profileKeys(), f, name))
}

// toField moves the editor's cursor to field i.
func toField(t *testing.T, m Model, i int) Model {
	t.Helper()
	for range profiles.FieldCount + 1 {
		if topModal[profiles.Editor](t, m).FocusedField() == i {
			return m
		}
		m, _ = update(m, keyTab)
	}
	t.Fatalf("field %d not reached", i)
	return m
}

// setField replaces the text of field i.
func setField(t *testing.T, m Model, i int, text string) Model {
	t.Helper()
	m = toField(t, m, i)
	e := topModal[profiles.Editor](t, m)
	m.modals = m.modals.replaceTop(e.WithValue(i, ""))
	return typeText(m, text)
}
