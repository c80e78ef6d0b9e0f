package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vouch/tui/kit"
	"vouch/tui/settings"
	"vouch/tui/settings/servers"
	"vouch/tui/settings/tools"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

// newFake returns a fakeServers with the sample servers and tools.
func newFake() *fakeServers {
	return &fakeServers{servers: sampleServers(), tools: sampleTools(), report: successReport()}
}

// TestEditorTestNeedsName: the editor's test key is disabled, absent from
// the help line and inert until the server has a name (SPEC B2).
func TestEditorTestNeedsName(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	m, _ = update(m, keyRune('n'))
	if h := helpLine(m); strings.Contains(h, "test") {
		t.Errorf("help line offers a test without a name: %q", h)
	}
	m, cmd := update(m, keyCtrlT)
	if cmd != nil {
		t.Errorf("ctrl+t without a name returned a Cmd")
	}
	if saved, tested, _, _, _ := fs.calls(); len(saved) != 0 || len(tested) != 0 {
		t.Errorf("ctrl+t without a name saved %d and tested %d servers, want none", len(saved), len(tested))
	}
	m = typeText(m, "   ")
	if topModal[servers.Editor](t, m).Keys().Test.Enabled() {
		t.Error("a blank name enables the test")
	}
	m = typeText(m, "notes")
	if h := helpLine(m); !strings.Contains(h, "ctrl+t save & test") {
		t.Errorf("help line with a name lacks the test: %q", h)
	}
}

// TestSaveDoesNotActivate: saving adds the server inactive, calls nothing
// but SaveServer, closes the editor and reloads the list (SPEC B2).
func TestSaveDoesNotActivate(t *testing.T) {
	fs := newFake()
	fs.servers = nil
	m := openSettings(t, fs)
	m, _ = update(m, keyRune('n'))
	m = typeText(m, "notes")
	m, _ = update(m, keyTab)
	m = typeText(m, "https://notes.example.com/mcp")
	m, cmd := update(m, keyEnter)
	m, cmd = update(m, awaitMsg[servers.SavedMsg](t, cmd))
	if _, ok := m.modals.top().(settings.Model); !ok {
		t.Fatalf("after saving, top modal = %T, want Settings", m.modals.top())
	}
	saved, tested, actives, _, _ := fs.calls()
	if len(saved) != 1 || saved[0].Name != "notes" || saved[0].URL != "https://notes.example.com/mcp" || saved[0].Secret != nil {
		t.Fatalf("SaveServer got %+v, want notes with no secret", saved)
	}
	if len(tested) != 0 || len(actives) != 0 {
		t.Errorf("save also tested %v or changed activation %v", tested, actives)
	}
	// The list reloads when it is on top again.
	m, _ = update(m, awaitMsg[servers.ListedMsg](t, cmd))
	view := m.View()
	if !strings.Contains(view, "notes") || !strings.Contains(view, "○ inactive") {
		t.Errorf("saved server not listed as inactive:\n%s", view)
	}
}

// TestActivateOnlyByItsKey: neither save, nor test, nor the list's
// activate key activates; only "a" in a report of a test that connected
// does, once (SPEC B2).
func TestActivateOnlyByItsKey(t *testing.T) {
	fs := newFake()
	fs.servers = nil
	m := openSettings(t, fs)
	m, _ = update(m, keyRune('n'))
	m = typeText(m, "notes")
	m, _ = update(m, keyTab)
	m = typeText(m, "https://notes.example.com/mcp")
	m = press[servers.SavedMsg](t, m, keyCtrlT)
	r := topModal[servers.Report](t, m)
	if r.Keys().Activate.Enabled() {
		t.Error("activate enabled while the test runs")
	}
	m, _ = update(m, awaitMsg[servers.TestedMsg](t, r.Init()))
	if _, _, actives, _, _ := fs.calls(); len(actives) != 0 {
		t.Fatalf("save and test activated: %v", actives)
	}
	if h := helpLine(m); !strings.Contains(h, "a activate") {
		t.Errorf("report help lacks activate: %q", h)
	}
	m = press[servers.ActiveMsg](t, m, keyRune('a'))
	if _, _, actives, _, _ := fs.calls(); len(actives) != 1 || actives[0] != (activeCall{"srv-1", true}) {
		t.Fatalf("activate calls = %v, want one for srv-1", actives)
	}
	if view := m.View(); !strings.Contains(view, "Activated: its tools are offered from now on.") {
		t.Errorf("no activation notice:\n%s", view)
	}
	if topModal[servers.Report](t, m).Keys().Activate.Enabled() {
		t.Error("activate still enabled on an active server")
	}
}

// TestListActivateGoesThroughTest: the list's activate key on an inactive
// server opens a test report and changes nothing by itself; on an active
// server it deactivates at once.
func TestListActivateGoesThroughTest(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	for range 5 { // scratch, inactive
		m, _ = update(m, keyDown)
	}
	m, cmd := update(m, keyRune('a'))
	r := topModal[servers.Report](t, m)
	if r.Server().ID != "s6" {
		t.Fatalf("report for %q, want s6", r.Server().ID)
	}
	m, _ = update(m, awaitMsg[servers.TestedMsg](t, cmd))
	if _, tested, actives, _, _ := fs.calls(); len(tested) != 1 || len(actives) != 0 {
		t.Fatalf("after the activate key: tested %v, activation calls %v; want one test and no activation", tested, actives)
	}
	m = press[servers.ListedMsg](t, m, keyEsc) // Settings reloads
	m, _ = update(m, keyRune('k'))             // up to evil, active
	m = press[servers.ActiveMsg](t, m, keyRune('a'))
	if _, _, actives, _, _ := fs.calls(); len(actives) != 1 || actives[0] != (activeCall{"s5", false}) {
		t.Fatalf("activation calls = %v, want s5 deactivated", actives)
	}
	if view := m.View(); !strings.Contains(view, "Deactivated ") {
		t.Errorf("no deactivation notice:\n%s", view)
	}
}

// TestToolToggle: space calls SetToolEnabled with the tool's identity and
// the opposite state; the switch moves only when it answered, and a
// failure leaves it as it was with the error.
func TestToolToggle(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	m = press[tools.ListedMsg](t, m, keyTab)
	m, _ = update(m, keyDown) // write_file, off
	m, cmd := update(m, keySpace)
	if view := m.View(); !strings.Contains(view, "› [·] write_file") {
		t.Errorf("pending toggle not shown:\n%s", view)
	}
	m, _ = update(m, awaitMsg[tools.ToggledMsg](t, cmd))
	if _, _, _, _, toggles := fs.calls(); len(toggles) != 1 || toggles[0] != (toggleCall{"mcp:s1:write_file", true}) {
		t.Fatalf("SetToolEnabled calls = %v, want write_file on", toggles)
	}
	if view := m.View(); !strings.Contains(view, "› [x] write_file") || !strings.Contains(view, "write_file is on for this conversation.") {
		t.Errorf("toggle not applied:\n%s", view)
	}

	fs.mu.Lock()
	fs.toggleErr = errors.New("the conversation is read-only")
	fs.mu.Unlock()
	m = press[tools.ToggledMsg](t, m, keySpace)
	view := m.View()
	if !strings.Contains(view, "› [x] write_file") || !strings.Contains(view, "✗ Could not turn off the tool: the conversation is read-only.") {
		t.Errorf("failed toggle changed the switch or hid the error:\n%s", view)
	}
}

// TestToolsFilter: "/" starts a filter that letters go to (not the page's
// keys), esc clears it, and esc again closes Settings.
func TestToolsFilter(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	m = press[tools.ListedMsg](t, m, keyTab)
	m, _ = update(m, keyRune('/'))
	m = typeText(m, "secret r") // "r" would refresh, " " would toggle
	p := topModal[settings.Model](t, m).Pages()[1].(tools.Page)
	if got := p.Filter(); got != "secret r" {
		t.Errorf("filter = %q, want %q", got, "secret r")
	}
	if _, _, _, _, toggles := fs.calls(); len(toggles) != 0 {
		t.Errorf("typing in the filter toggled %v", toggles)
	}
	m, _ = update(m, keyEsc)
	m, _ = update(m, keyRune('/'))
	m = typeText(m, "secret")
	if view := m.View(); !strings.Contains(view, "read_secret") || strings.Contains(view, "read_file") {
		t.Errorf("filter %q shows the wrong tools:\n%s", "secret", view)
	}
	m, _ = update(m, keyEnter) // keep the filter, stop typing
	m, _ = update(m, keyEsc)   // clear it
	if view := m.View(); !strings.Contains(view, "read_file") {
		t.Errorf("esc did not clear the filter:\n%s", view)
	}
	m, _ = update(m, keyEsc)
	if !m.modals.empty() {
		t.Errorf("esc without a filter left %T open", m.modals.top())
	}
}

// TestSaveErrorKeepsFields: a failed save shows its sentence under the
// form and keeps every field, the typed secret included.
func TestSaveErrorKeepsFields(t *testing.T) {
	fs := newFake()
	fs.saveErr = errors.New("a server named files already exists")
	m := openSettings(t, fs)
	m, _ = update(m, keyRune('n'))
	typed := []string{"files", "https://other.example.com/mcp", "X-Api-Key", "s3cr3t-value"}
	for i, s := range typed {
		if i > 0 {
			m, _ = update(m, keyTab)
		}
		m = typeText(m, s)
	}
	m = press[servers.SavedMsg](t, m, keyEnter)
	e := topModal[servers.Editor](t, m)
	for i, want := range typed {
		if got := e.Value(i); got != want {
			t.Errorf("field %d after a failed save = %q, want %q", i, got, want)
		}
	}
	view := m.View()
	if !strings.Contains(view, "✗ Could not save the server: a server named files already exists.") {
		t.Errorf("save error not shown:\n%s", view)
	}
	if strings.Contains(view, "s3cr3t") {
		t.Errorf("view shows the secret:\n%s", view)
	}
	saved, _, _, _, _ := fs.calls()
	if len(saved) != 1 || saved[0].Secret == nil || *saved[0].Secret != "s3cr3t-value" || saved[0].HeaderName != "X-Api-Key" {
		t.Errorf("SaveServer got %+v", saved)
	}
}

// TestSecretNeverShown: editing a server with a stored secret shows an
// empty field that says so; the secret reaches SaveServer only when typed
// (replace) or removed with its key (""); an untouched field keeps it (nil)
// (SPEC B1).
func TestSecretNeverShown(t *testing.T) {
	tests := []struct {
		name  string
		drive func(Model) Model
		want  *string
	}{
		{name: "untouched_keeps", drive: func(m Model) Model { return m }},
		{name: "typed_replaces", drive: func(m Model) Model { return typeText(m, "new-token-42") }, want: ptr("new-token-42")},
		{name: "removed", drive: func(m Model) Model { m, _ = update(m, keyCtrlR); return m }, want: ptr("")},
		{name: "removed_then_kept", drive: func(m Model) Model {
			m, _ = update(m, keyCtrlR)
			m, _ = update(m, keyCtrlR)
			return m
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFake()
			m := openSettings(t, fs)
			m, _ = update(m, keyEnter)    // edit files, which has a secret
			m, _ = update(m, keyShiftTab) // to the secret field
			if view := m.View(); !strings.Contains(view, servers.SecretStored) {
				t.Fatalf("editor does not say a secret is stored:\n%s", view)
			}
			m = tt.drive(m)
			if view := m.View(); strings.Contains(view, "new-token") {
				t.Fatalf("view shows the typed secret:\n%s", view)
			}
			press[servers.SavedMsg](t, m, keyEnter)
			saved, _, _, _, _ := fs.calls()
			if len(saved) != 1 {
				t.Fatalf("SaveServer called %d times", len(saved))
			}
			got := saved[0].Secret
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("Secret = %s, want %s", show(got), show(tt.want))
			}
			if saved[0].ID != "s1" {
				t.Errorf("saved ID %q, want s1", saved[0].ID)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func show(p *string) string {
	if p == nil {
		return "nil"
	}
	return `"` + *p + `"`
}

// TestEscCancelsRunningTest: esc while a test runs cancels its context and
// closes the report; the test's late answer changes nothing.
func TestEscCancelsRunningTest(t *testing.T) {
	fs := newFake()
	fs.testStarted = make(chan context.Context, 1)
	fs.blockTest = true
	m := openSettings(t, fs)
	m, cmd := update(m, keyRune('t'))
	result := startCmd[servers.TestedMsg](cmd)
	ctx := receive(t, fs.testStarted, "TestServer call")
	if ctx.Err() != nil {
		t.Fatal("test context ended before esc")
	}
	m, _ = update(m, keyEsc)
	if ctx.Err() == nil {
		t.Fatal("esc did not cancel the test's context")
	}
	if _, ok := m.modals.top().(settings.Model); !ok {
		t.Fatalf("top modal after esc = %T, want Settings", m.modals.top())
	}
	before := m.View()
	m, _ = update(m, receive(t, result, "test result"))
	if after := m.View(); after != before {
		t.Errorf("an abandoned test's answer changed the screen:\n%s", after)
	}
}

// TestRemoveConfirmDefaultsToCancel: enter on the confirmation removes
// nothing; moving to Remove first does, and the list says so.
func TestRemoveConfirmDefaultsToCancel(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	m, _ = update(m, keyRune('x'))
	if h := helpLine(m); h != "←/→ choose • enter confirm choice • esc cancel" {
		t.Errorf("confirmation help = %q", h)
	}
	m = press[servers.ListedMsg](t, m, keyEnter) // closes; Settings reloads
	if _, ok := m.modals.top().(settings.Model); !ok {
		t.Fatalf("top modal after enter = %T, want Settings", m.modals.top())
	}
	if _, _, _, removed, _ := fs.calls(); len(removed) != 0 {
		t.Fatalf("enter on the default choice removed %v", removed)
	}
	m, _ = update(m, keyRune('x'))
	m, _ = update(m, keyRight)
	m = press[servers.RemovedMsg](t, m, keyEnter)
	if _, _, _, removed, _ := fs.calls(); len(removed) != 1 || removed[0] != "s1" {
		t.Fatalf("removed %v, want s1", removed)
	}
	if view := m.View(); !strings.Contains(view, "Removed files.") {
		t.Errorf("no removal notice:\n%s", view)
	}
}

// TestSettingsHelpFollowsTopModal: the help line shows the bindings of the
// top modal at every depth, and the chat's again once all are closed (STYLE
// habit 4).
func TestSettingsHelpFollowsTopModal(t *testing.T) {
	fs := newFake()
	m := startModel(t, newFakeBackend(), Options{Servers: fs})
	chat := helpLine(m)
	m = press[servers.ListedMsg](t, m, keyCtrlX)
	list := helpLine(m)
	if !strings.HasPrefix(list, "n new • enter edit • t test") || !strings.HasSuffix(list, "tab tools") {
		t.Errorf("list help = %q", list)
	}
	m, _ = update(m, keyEnter)
	if h := helpLine(m); !strings.HasPrefix(h, "tab next • enter save") || !strings.HasSuffix(h, "esc cancel") {
		t.Errorf("editor help = %q", h)
	}
	m, _ = update(m, keyEsc)
	if h := helpLine(m); h != list {
		t.Errorf("help after the editor closed = %q, want %q", h, list)
	}
	m = press[tools.ListedMsg](t, m, keyTab)
	if h := helpLine(m); !strings.Contains(h, "space on/off") || !strings.HasSuffix(h, "tab policy") {
		t.Errorf("tools help = %q", h)
	}
	m, _ = update(m, keyEsc)
	if h := helpLine(m); h != chat {
		t.Errorf("help after Settings closed = %q, want %q", h, chat)
	}
	if !m.input.Focused() {
		t.Error("input not focused after Settings closed")
	}
}

// TestSettingsKeysStayInModal: letters typed in Settings never reach the
// chat input, and ctrl+x in the input does not type anything.
func TestSettingsKeysStayInModal(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	m = typeText(m, "qwz")
	m, _ = update(m, keyEsc)
	if m.input.Value() != "" {
		t.Errorf("input after typing in Settings = %q", m.input.Value())
	}
}

// TestServersUnavailable: without Servers, Settings still opens, says so,
// and offers no server keys.
func TestServersUnavailable(t *testing.T) {
	m := openSettings(t, nil)
	if view := m.View(); !strings.Contains(view, "MCP servers are not available here.") {
		t.Errorf("view:\n%s", view)
	}
	if h := helpLine(m); h != "esc close • tab tools" {
		t.Errorf("help = %q", h)
	}
	m, cmd := update(m, keyRune('n'))
	if cmd != nil || len(m.modals.entries) != 1 {
		t.Errorf("n without Servers opened %T", m.modals.top())
	}
}

// TestHostileServerText: escape sequences, an OSC 52 write and a bidi
// override in a server's name, URL and error never reach the screen as
// such, on the list, in the editor and in the report (SPEC D3).
func TestHostileServerText(t *testing.T) {
	fs := newFake()
	fs.testErr = errors.New("server said \x1b]0;pwned\x07\u202eno")
	m := openSettings(t, fs)
	for range 4 {
		m, _ = update(m, keyDown)
	}
	check := func(where string) {
		t.Helper()
		if view := m.View(); strings.ContainsAny(view, "\x1b\u009b\u202e\a") {
			t.Errorf("%s contains a control or bidi character: %q", where, view)
		}
	}
	check("list")
	m, _ = update(m, keyEnter)
	check("editor")
	m, _ = update(m, keyEsc)
	m = press[servers.TestedMsg](t, m, keyRune('t'))
	check("report")
	if view := m.View(); !strings.Contains(view, "⟨U+202E⟩no") {
		t.Errorf("report hides the bidi override instead of showing it:\n%s", view)
	}
}

// TestSettingsResize: every modal of the stack takes a new size, and no
// line is wider than the screen.
func TestSettingsResize(t *testing.T) {
	fs := newFake()
	m := openSettings(t, fs)
	m, _ = update(m, keyEnter)
	for _, size := range [][2]int{{120, 40}, {80, 24}, {100, 30}} {
		m, _ = update(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for i, e := range m.modals.entries {
			if w, h := modalSize(e.modal); w != size[0] || h != m.chatHeight {
				t.Errorf("%dx%d: modal %d (%T) is %dx%d", size[0], size[1], i, e.modal, w, h)
			}
		}
		lines := strings.Split(m.View(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
	}
}

// modalSize is the size a modal was given.
func modalSize(md kit.Modal) (int, int) {
	switch md := md.(type) {
	case settings.Model:
		return md.Size()
	case servers.Editor:
		return md.Size()
	}
	return 0, 0
}

// TestSettingsNoColor: with NoColor, Settings frames carry no colour codes.
func TestSettingsNoColor(t *testing.T) {
	r := colourRenderer()
	for _, noColor := range []bool{true, false} {
		fs := newFake()
		m := startModel(t, newFakeBackend(), Options{Servers: fs, NoColor: noColor, Renderer: r})
		m = press[servers.ListedMsg](t, m, keyCtrlX)
		frames := []string{m.View()}
		m = press[tools.ListedMsg](t, m, keyTab)
		frames = append(frames, m.View())
		for _, f := range frames {
			if codes := colourCodes(f); noColor && len(codes) > 0 {
				t.Errorf("NO_COLOR frame has colour codes %q", codes)
			} else if !noColor && len(codes) == 0 {
				t.Errorf("colour frame has no colour codes; the check is blind")
			}
		}
	}
}

// TestServerListLoading: the list says it is loading until ListServers
// answers, a failure is one sentence, and an answer to an older load is
// dropped.
func TestServerListLoading(t *testing.T) {
	fs := newFake()
	fs.listErr = errors.New("database is locked by another vouch\nretry")
	m := startModel(t, newFakeBackend(), Options{Servers: fs})
	m, first := update(m, keyCtrlX)
	if view := m.View(); !strings.Contains(view, "Loading servers…") {
		t.Errorf("no loading state:\n%s", view)
	}
	stale := awaitMsg[servers.ListedMsg](t, first)
	m, second := update(m, keyRune('r'))
	m, _ = update(m, stale) // the answer to the first load arrives late
	if view := m.View(); strings.Contains(view, "Could not list") {
		t.Errorf("an older load's answer was applied:\n%s", view)
	}
	m, _ = update(m, awaitMsg[servers.ListedMsg](t, second))
	flat := strings.Join(strings.Fields(strings.ReplaceAll(m.View(), "│", " ")), " ")
	if !strings.Contains(flat, "✗ Could not list the MCP servers: database is locked by another vouch retry.") {
		t.Errorf("list error not shown as one sentence:\n%s", m.View())
	}
}

// TestSettingsFullHelpFits: with the full help shown, Settings is sized to
// the smaller area above it, at every depth, and the frame stays 24 lines.
func TestSettingsFullHelpFits(t *testing.T) {
	fs := newFake()
	m := startModel(t, newFakeBackend(), Options{Servers: fs})
	m, _ = update(m, keyHelp)
	m = press[servers.ListedMsg](t, m, keyCtrlX)
	m, _ = update(m, keyEnter)
	for i, e := range m.modals.entries {
		if _, h := modalSize(e.modal); h != m.chatHeight {
			t.Errorf("modal %d (%T) is %d tall, want %d", i, e.modal, h, m.chatHeight)
		}
	}
	lines := strings.Split(m.View(), "\n")
	if len(lines) != 24 { // startModel's size
		t.Fatalf("frame has %d lines, want %d", len(lines), 24)
	}
	// Only the top modal is drawn (compose.go, issue 18 item 6): its
	// bottom border is inside the chat area.
	if !strings.Contains(strings.Join(lines[:m.chatHeight], "\n"), "╰") {
		t.Errorf("the top modal's bottom border is cut off:\n%s", m.View())
	}
}

// TestProgramSettings runs the real Bubble Tea loop: Settings opens on
// ctrl+x, a test runs with its spinner and reports, esc closes the report
// and Settings, and ctrl+c quits.
func TestProgramSettings(t *testing.T) {
	fs := newFake()
	tm := teatest.NewTestModel(t, New(newFakeBackend(), Options{Servers: fs, Clipboard: &syncBuffer{}}),
		teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "Type a message")
	tm.Send(keyCtrlX)
	waitFor(t, tm, "files.example.com")
	tm.Send(keyRune('t'))
	waitFor(t, tm, "Connected in 1.2s")
	tm.Send(keyEsc)
	tm.Send(keyEsc)
	tm.Send(keyCtrlC)
	final := tm.FinalModel(t, teatest.WithFinalTimeout(testTimeout)).(Model)
	if !final.modals.empty() {
		t.Errorf("modals still open: %T", final.modals.top())
	}
	if _, tested, actives, _, _ := fs.calls(); len(tested) != 1 || len(actives) != 0 {
		t.Errorf("tested %v, activation calls %v; want one test, no activation", tested, actives)
	}
}
