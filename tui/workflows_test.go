package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

// openProfileTools shows the tool selection pane of daily-report, loaded.
func openProfileTools(t *testing.T, f *fakeWorkflows) Model {
	t.Helper()
	m, _ := startWorkflows(t, f)
	return pushAndLoad[toolsMsg](t, m, newProfileTools(m.common, f, "daily-report"))
}

// cursorTo moves the tools pane's cursor to the tool named name.
func cursorTo(t *testing.T, m Model, name string) Model {
	t.Helper()
	for range 10 {
		p := topModal[profileTools](t, m).page
		if sel, ok := p.selected(); ok && sel.Name == name {
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
	if p := topModal[profileTools](t, m).page; !p.pending["mcp:s1:read_file"] || p.tools[1].Enabled {
		t.Fatalf("before SetProfileTool answered: pending %v, enabled %v; want pending and still off", p.pending, p.tools[1].Enabled)
	}
	m, _ = update(m, awaitMsg[toolToggledMsg](t, cmd))

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
	m, _ = update(m, awaitMsg[toolToggledMsg](t, cmd))
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
	p := topModal[profileTools](t, m).page
	if len(p.visible) != 1 || p.tools[p.visible[0]].Name != "write_file" {
		t.Fatalf("filter wri shows %v, want write_file only", p.visible)
	}
	if strings.Contains(m.View(), "list_dir") {
		t.Errorf("filtered pane still shows list_dir:\n%s", m.View())
	}
	m, _ = update(m, keyEnter) // done filtering, the filter stays
	m, cmd := update(m, keySpace)
	m, _ = update(m, awaitMsg[toolToggledMsg](t, cmd))
	if got, want := selectedTools(t, f, "daily-report"), []string{"mcp:s1:write_file"}; !slices.Equal(got, want) {
		t.Errorf("allowlist = %v, want %v", got, want)
	}
	// By server name: "files" matches its three tools, not the built-in.
	m, _ = update(m, keyEsc) // clears the filter
	m, _ = update(m, keyRune('/'))
	m = typeText(m, "files")
	if p := topModal[profileTools](t, m).page; len(p.visible) != 3 {
		t.Errorf("filter files shows %d tools, want 3", len(p.visible))
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
	m, _ = update(m, awaitMsg[toolToggledMsg](t, cmd))
	p := topModal[profileTools](t, m).page
	if tv, _ := p.selected(); tv.Enabled || len(p.pending) != 0 {
		t.Errorf("after a refusal: enabled %v, pending %v; want off, none pending", tv.Enabled, p.pending)
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
	before := topModal[profileTools](t, m).page.tools
	m, _ = update(m, toolsMsg{seq: 1, tools: []ToolView{{Identity: "mcp:x:y", Name: "y"}}})
	if after := topModal[profileTools](t, m).page.tools; len(after) != len(before) {
		t.Errorf("a conversation toolsMsg replaced the profile's tools: %d → %d", len(before), len(after))
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
	return pushAndLoad[profileFormMsg](t, m, newProfileEditor(m.common, f, name))
}

// toField moves the editor's cursor to field i.
func toField(t *testing.T, m Model, i int) Model {
	t.Helper()
	for range pfCount + 1 {
		if topModal[profileEditor](t, m).focus == i {
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
	e := topModal[profileEditor](t, m)
	e.inputs[i].SetValue("")
	m.modals = m.modals.replaceTop(e)
	return typeText(m, text)
}

// TestProfileEditorValidation: each bad field is refused with one sentence
// that says what to type, the cursor goes to that field, and nothing is
// saved (SPEC H2).
func TestProfileEditorValidation(t *testing.T) {
	tests := []struct {
		name  string
		field int
		text  string
		want  string
	}{
		{"name", pfName, "Daily Report", "The name must be lower-case letters, digits and hyphens"},
		{"window", pfWindow, "8k", "The context window must be a whole number of tokens"},
		{"temperature", pfTemperature, "3", "The temperature must be a number from 0 to 2"},
		{"budget", pfBudget, "250%", "The tool budget must be a share of the context window from 1% to 100%"},
		{"schedule", pfSchedule, "hourly", `A schedule is "every" and a duration of at least a minute`},
		{"schedule_too_often", pfSchedule, "every 10s", `A schedule is "every"`},
		{"cron_fields", pfSchedule, "cron 0 9 * *", `A schedule is "every"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeWorkflows(t)
			sampleWorkflows(f)
			m := openEditor(t, f, "")
			m = setField(t, m, pfName, "ok-name")
			m = toField(t, m, pfDefinition)
			m, _ = update(m, keyRight)
			m = setField(t, m, pfTask, "Do it.")
			m = setField(t, m, tt.field, tt.text)
			if tt.field != pfSchedule {
				m = setField(t, m, pfSchedule, "every 1h")
			}
			m = toField(t, m, pfModel) // the cursor must come back to the bad field
			m, cmd := update(m, keyEnter)
			if cmd != nil {
				t.Errorf("enter on a bad form returned a Cmd")
			}
			e := topModal[profileEditor](t, m)
			if e.focus != tt.field || e.errField != tt.field {
				t.Errorf("focus %d, error field %d; want %d", e.focus, e.errField, tt.field)
			}
			if !strings.HasPrefix(e.err, tt.want) || !strings.Contains(flat(m.View()), "✗ "+tt.want) {
				t.Errorf("error = %q, want it to start %q, shown under the form:\n%s", e.err, tt.want, m.View())
			}
			if saved, _, _, _ := f.recorded(); len(saved) != 0 {
				t.Errorf("a bad form was saved: %+v", saved)
			}
			if got := e.inputs[tt.field].Value(); got != tt.text {
				t.Errorf("field kept %q, want %q as typed", got, tt.text)
			}
		})
	}
}

// TestProfileEditorTaskNeedsSchedule: a task without a schedule, and a
// schedule without a task, are refused; nothing typed is dropped.
func TestProfileEditorTaskNeedsSchedule(t *testing.T) {
	for _, tc := range []struct{ schedule, task, want string }{
		{"", "Summarise.", "A task runs only on a schedule"},
		{"every 1h", "", "A schedule needs a task"},
	} {
		_, err := parseProfileForm(profileForm{name: "p", definition: "d", schedule: tc.schedule, task: tc.task})
		fe, ok := asFieldError(err)
		if !ok || fe.field != pfTask || !strings.HasPrefix(fe.msg, tc.want) {
			t.Errorf("schedule %q task %q: error %v, want %q on the task", tc.schedule, tc.task, err, tc.want)
		}
	}
}

// TestProfileEditorSavesNew: the form becomes exactly one ProfileInput,
// with the skills enabled in the order the person set, and the editor
// closes once SaveProfile answered (a new revision).
func TestProfileEditorSavesNew(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openEditor(t, f, "")
	m = setField(t, m, pfName, "release")
	m = toField(t, m, pfDefinition)
	m, _ = update(m, keyRight) // reviewer (none chosen: the first)
	m, _ = update(m, keyRight) // release-flow
	m = setField(t, m, pfWindow, "8192")
	m = setField(t, m, pfTemperature, "0.7")
	m = setField(t, m, pfBudget, "30%")
	m = setField(t, m, pfWorkspace, "/srv/release")
	m = toField(t, m, pfSkills)
	m, _ = update(m, keySpace)     // changelog on
	m, _ = update(m, keyDown)      // git-basics
	m, _ = update(m, keyDown)      // style-guide
	m, _ = update(m, keySpace)     // on
	m, _ = update(m, keyRune('K')) // above git-basics
	m, _ = update(m, keyRune('K')) // above changelog: first in the prompt
	m = setField(t, m, pfSchedule, "cron 0 9 * * 1-5")
	m = setField(t, m, pfTask, "Draft the release notes.")
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profileSavedMsg](t, cmd))

	saved, _, _, _ := f.recorded()
	if len(saved) != 1 {
		t.Fatalf("saved %d times, want 1", len(saved))
	}
	in := saved[0]
	if !in.Create || in.Name != "release" || in.Definition != "release-flow" || in.ContextWindow != 8192 ||
		in.Temperature == nil || *in.Temperature != 0.7 || in.ToolBudget != 0.3 || in.Workspace != "/srv/release" {
		t.Errorf("saved %+v", in)
	}
	if want := []string{"style-guide", "changelog"}; !slices.Equal(in.Skills, want) {
		t.Errorf("skills = %v, want %v in that order", in.Skills, want)
	}
	if in.Schedule == nil || in.Schedule.Cron != "0 9 * * 1-5" || in.Schedule.Task != "Draft the release notes." {
		t.Errorf("schedule = %+v", in.Schedule)
	}
	if !m.modals.empty() {
		t.Errorf("editor still open after saving: %T", m.modals.top())
	}
	if f.profiles["release"].Revision != 1 {
		t.Errorf("revision %d, want 1", f.profiles["release"].Revision)
	}
}

// TestProfileEditorEdit: editing loads every field, keeps the skills in the
// profile's order, and saving makes the next revision; a refusal by the
// Backend stays under the form with every field kept.
func TestProfileEditorEdit(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.saveErr = errors.New("the folder /home/me/proj does not exist; choose another")
	m := openEditor(t, f, "daily-report")
	e := topModal[profileEditor](t, m)
	if e.defs[e.def].Name != "reviewer" || e.inputs[pfWindow].Value() != "16384" || e.inputs[pfTemperature].Value() != "0.2" ||
		e.inputs[pfBudget].Value() != "25%" || e.inputs[pfSchedule].Value() != "every 24h" {
		t.Errorf("loaded def %d, window %q, temp %q, budget %q, schedule %q", e.def, e.inputs[pfWindow].Value(),
			e.inputs[pfTemperature].Value(), e.inputs[pfBudget].Value(), e.inputs[pfSchedule].Value())
	}
	var names []string
	for _, s := range e.skills {
		names = append(names, s.Name)
	}
	if want := []string{"style-guide", "changelog", "git-basics"}; !slices.Equal(names, want) {
		t.Errorf("skills listed %v, want %v (enabled first, in order)", names, want)
	}
	m = toField(t, m, pfSkills)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyRune('K')) // changelog first
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profileSavedMsg](t, cmd))
	if !strings.Contains(flat(m.View()), "Could not save the profile: the folder /home/me/proj does not exist; choose another.") {
		t.Errorf("no refusal under the form:\n%s", m.View())
	}
	if topModal[profileEditor](t, m).inputs[pfWorkspace].Value() != "/home/me/proj" {
		t.Error("the workspace field lost what it held")
	}
	f.mu.Lock()
	f.saveErr = nil
	f.mu.Unlock()
	m, cmd = update(m, keyEnter)
	m, _ = update(m, awaitMsg[profileSavedMsg](t, cmd))
	saved, _, _, _ := f.recorded()
	last := saved[len(saved)-1]
	if last.Create || last.Name != "daily-report" {
		t.Errorf("edit saved as Create=%v name %q", last.Create, last.Name)
	}
	if want := []string{"changelog", "style-guide"}; !slices.Equal(last.Skills, want) {
		t.Errorf("skills = %v, want %v", last.Skills, want)
	}
	if got := f.profiles["daily-report"].Revision; got != 5 {
		t.Errorf("revision %d, want 5", got)
	}
	if !m.modals.empty() {
		t.Error("editor still open after saving")
	}
}

// TestEditorKeysFollowTheField: letters type into text fields; space, K and
// J act on skills only there (help shows them only there).
func TestEditorKeysFollowTheField(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openEditor(t, f, "")
	m = typeText(m, "a-K J")
	if got := topModal[profileEditor](t, m).inputs[pfName].Value(); got != "a-K J" {
		t.Errorf("name = %q; K, J and space must type", got)
	}
	e := topModal[profileEditor](t, m)
	if e.keys.Enable.Enabled() || e.keys.MoveUp.Enabled() || e.keys.Choose.Enabled() {
		t.Error("skill and definition keys enabled on the name field")
	}
	m = toField(t, m, pfSkills)
	e = topModal[profileEditor](t, m)
	if !e.keys.Enable.Enabled() || !e.keys.MoveDown.Enabled() || e.keys.MoveUp.Enabled() {
		t.Error("on the first skill: enable and move down should act, move up not")
	}
}

// TestWorkflowsSwitch: space turns Agent Workflows off once the Backend
// answered; the schedules show paused and the note says schedules are not
// a server (SPEC H1, H6).
func TestWorkflowsSwitch(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	p := newWorkflowsPage(m.common, f).setSize(76, 14)
	p, cmd := p.focus()
	p, _, _ = p.update(awaitMsg[workflowsMsg](t, cmd))
	if view := ansi.Strip(p.view()); !strings.Contains(view, "● on") || !strings.Contains(view, "Schedules are not a server") {
		t.Fatalf("page:\n%s", view)
	}
	p, _, cmd = p.update(keySpace)
	if !p.(workflowsPage).on {
		t.Fatal("switch moved before the Backend answered")
	}
	p, _, cmd = p.update(awaitMsg[workflowsSetMsg](t, cmd))
	p, _, _ = p.update(awaitMsg[workflowsMsg](t, cmd))
	view := flat(p.view())
	for _, want := range []string{"○ off", "nothing was deleted", "paused: Agent Workflows is off"} {
		if !strings.Contains(view, want) {
			t.Errorf("page lacks %q:\n%s", want, view)
		}
	}
	if _, _, _, sw := f.recorded(); !slices.Equal(sw, []bool{false}) {
		t.Errorf("SetWorkflowsEnabled calls = %v, want [false]", sw)
	}
	if k := p.(workflowsPage).keys.Toggle.Help().Desc; k != "turn on" {
		t.Errorf("toggle help = %q, want turn on", k)
	}
}

// TestWorkflowsSwitchFails: a refusal keeps the switch and says why.
func TestWorkflowsSwitchFails(t *testing.T) {
	f := newFakeWorkflows(t)
	f.switchErr = errors.New("the database is read-only")
	m, _ := startWorkflows(t, f)
	p := newWorkflowsPage(m.common, f).setSize(76, 14)
	p, cmd := p.focus()
	p, _, _ = p.update(awaitMsg[workflowsMsg](t, cmd))
	p, _, cmd = p.update(keySpace)
	p, _, _ = p.update(awaitMsg[workflowsSetMsg](t, cmd))
	if !p.(workflowsPage).on || !strings.Contains(flat(p.view()), "Could not turn off Agent Workflows: the database is read-only.") {
		t.Errorf("after a refusal:\n%s", p.view())
	}
}

// openInboxAt starts a model over f and opens the inbox with ctrl+e.
func openInboxAt(t *testing.T, f *fakeWorkflows) (Model, *clock) {
	t.Helper()
	m, clk := startWorkflows(t, f)
	m = press[inboxMsg](t, m, keyCtrlE)
	return m, clk
}

var keyCtrlE = tea.KeyMsg{Type: tea.KeyCtrlE}

// TestInboxAnswerGoesToItsRun: the second call of the inbox opens in the
// approval pane, with its grace period and focus on Deny; allowing it
// sends exactly one decision, to that run and call, and the inbox reloads
// without it (SPEC H6, D4).
func TestInboxAnswerGoesToItsRun(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, clk := openInboxAt(t, f)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyEnter)
	a := topModal[approval](t, m)
	if a.req.background == nil || a.req.background.id != "r-106" || a.req.call.CorrelationID != "c-9" {
		t.Fatalf("pane shows %+v", a.req)
	}
	if !strings.Contains(m.View(), "background run r-106 of profile release") {
		t.Errorf("pane does not name the run:\n%s", m.View())
	}
	// Within the grace period, keys do nothing.
	m, _ = update(m, keyRune('a'))
	if _, _, answers, _ := f.recorded(); len(answers) != 0 {
		t.Fatalf("answered within the grace period: %v", answers)
	}
	clk.advance(time.Second)
	m, cmd := update(m, keyRune('a'))
	if _, ok := m.modals.top().(inbox); !ok {
		t.Fatalf("after answering, top = %T, want the inbox", m.modals.top())
	}
	msg := awaitMsg[inboxAnsweredMsg](t, cmd)
	m, cmd = update(m, msg)
	m, _ = update(m, awaitMsg[inboxMsg](t, cmd))

	_, _, answers, _ := f.recorded()
	want := []inboxAnswer{{run: "r-106", correlation: "c-9", decision: agent.Decision{Allow: true}}}
	if !slices.Equal(answers, want) {
		t.Errorf("answers = %+v, want %+v", answers, want)
	}
	in := topModal[inbox](t, m)
	if len(in.items.items) != 1 || in.items.items[0].RunID != "r-105" {
		t.Errorf("inbox after answering = %+v, want only r-105's call", in.items.items)
	}
	if !strings.Contains(flat(m.View()), "Allowed once: the call c-9 of run r-106.") {
		t.Errorf("no notice:\n%s", m.View())
	}
}

// TestInboxDenyAndBack: enter on the pane's default denies; ctrl+c goes
// back to the inbox without answering; a failed answer is one sentence.
func TestInboxDenyAndBack(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.answerErr = errors.New("the run stopped waiting at its deadline")
	m, clk := openInboxAt(t, f)
	m, _ = update(m, keyEnter)
	clk.advance(time.Second)
	m, cmd := update(m, keyCtrlC)
	if _, ok := m.modals.top().(inbox); !ok || cmd == nil {
		t.Fatalf("ctrl+c: top = %T, want the inbox (reloading)", m.modals.top())
	}
	m, _ = update(m, awaitMsg[inboxMsg](t, cmd))
	if _, _, answers, _ := f.recorded(); len(answers) != 0 {
		t.Fatalf("going back answered: %v", answers)
	}
	m, _ = update(m, keyEnter)
	clk.advance(time.Second)
	m, cmd = update(m, keyEnter) // focus starts on Deny
	m, _ = update(m, awaitMsg[inboxAnsweredMsg](t, cmd))
	_, _, answers, _ := f.recorded()
	if len(answers) != 1 || answers[0].decision.Allow || answers[0].run != "r-105" {
		t.Errorf("answers = %+v, want one denial for r-105", answers)
	}
	if !strings.Contains(flat(m.View()), "The answer did not reach the run: the run stopped waiting at its deadline.") {
		t.Errorf("no error sentence:\n%s", m.View())
	}
}

// TestInboxAnswerAfterClose: an answer that arrives once the inbox is
// closed still reports, in the status line.
func TestInboxAnswerAfterClose(t *testing.T) {
	f := newFakeWorkflows(t)
	m, _ := startWorkflows(t, f)
	m, _ = update(m, inboxAnsweredMsg{runID: "r-1", correlation: "c-1", err: errors.New("the run ended")})
	if !strings.Contains(m.View(), "The run ended.") {
		t.Errorf("status line lacks the failure:\n%s", m.View())
	}
}

// TestChatRunEndKeepsInboxPane: when a chat run ends, its own approval
// panes go, but a pane of an inbox call stays.
func TestChatRunEndKeepsInboxPane(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := openInboxAt(t, f)
	m, _ = update(m, keyEnter)
	m, _ = m.dropApprovals(nil, "not answered: the run ended")
	if a, ok := m.modals.top().(approval); !ok || a.req.background == nil {
		t.Errorf("top = %T, want the inbox call's pane", m.modals.top())
	}
}

// TestInboxCount: the status line counts the waiting calls from the
// Inbox's changes, and says nothing at zero (SPEC H6, L2).
func TestInboxCount(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := New(f, Options{Now: func() time.Time { return t0 }, Clipboard: &syncBuffer{}})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	// The first count is read once (two calls wait); then it is watched.
	first := countInbox(f)().(inboxCountMsg)
	if first.count != 2 {
		t.Fatalf("first count = %+v, want 2", first)
	}
	m, cmd := update(m, first)
	status := func(m Model) string {
		lines := strings.Split(m.View(), "\n")
		return lines[len(lines)-2]
	}
	if !strings.Contains(status(m), "2 approvals waiting (ctrl+e)") {
		t.Errorf("status line = %q", status(m))
	}
	f.setCount(1)
	m, _ = update(m, awaitMsg[inboxCountMsg](t, cmd))
	if !strings.Contains(status(m), "1 approval waiting (ctrl+e)") {
		t.Errorf("status line = %q", status(m))
	}
	m, _ = update(m, inboxCountMsg{count: 0})
	if strings.Contains(status(m), "waiting") {
		t.Errorf("status line at zero = %q", status(m))
	}
	// Init asks for the count too (its watch is left waiting: last).
	if msg := awaitMsg[inboxCountMsg](t, m.Init()); msg.count != 2 {
		t.Errorf("Init's count = %+v, want 2", msg)
	}
}

// TestWatchInboxKeepsTheLatest: counts are snapshots; the watch delivers
// the latest unread one and reports a closed channel.
func TestWatchInboxKeepsTheLatest(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 3
	if msg := watchInbox(ch)().(inboxCountMsg); msg.count != 3 || msg.closed {
		t.Errorf("watch = %+v, want count 3", msg)
	}
	close(ch)
	if msg := watchInbox(ch)().(inboxCountMsg); !msg.closed {
		t.Errorf("watch of a closed channel = %+v, want closed", msg)
	}
}

// TestRunHistory: ctrl+r lists runs newest first a page at a time; m and
// reaching the end fetch older ones; enter opens one with what it froze,
// its calls with correlation IDs, approvals, events and outcome (SPEC H7).
func TestRunHistory(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	m = press[runsMsg](t, m, keyCtrlR)
	l := topModal[runList](t, m)
	if len(l.runs.items) != 2 || l.next != "r-104" {
		t.Fatalf("first page: %d runs, next %q", len(l.runs.items), l.next)
	}
	m = press[runsMsg](t, m, keyRune('m'))
	if l := topModal[runList](t, m); len(l.runs.items) != 4 || l.next != "" || l.keys.More.Enabled() {
		t.Errorf("after m: %d runs, next %q, more enabled %v", len(l.runs.items), l.next, l.keys.More.Enabled())
	}
	if f.pages[0] != "" || f.pages[1] != "r-104" {
		t.Errorf("pages asked = %v", f.pages)
	}
	view := m.View()
	for _, want := range []string{"missed", "failed", "waiting for appr…", "headless"} {
		if !strings.Contains(view, want) {
			t.Errorf("list lacks %q:\n%s", want, view)
		}
	}
	m = press[runMsg](t, m, keyEnter)
	d := topModal[runDetail](t, m)
	body := ansi.Strip(strings.Join(d.body, "\n"))
	for _, want := range []string{"Frozen specification", "Profile revision  4", "reviewer, revision 3",
		"files__read_file → mcp:s1:read_file", "1. style-guide 2.0.0 sha256:9f2c41d0", "4 rules · 3a9f01",
		"c-2  files__write_file → mcp:s1:write_file", "Approvals (1)", "skill_load style-guide"} {
		if !strings.Contains(body, want) {
			t.Errorf("run lacks %q:\n%s", want, body)
		}
	}
	m, _ = update(m, keyEnd)
	if d := topModal[runDetail](t, m); d.scroll == 0 {
		t.Error("end did not scroll")
	}
	m, _ = update(m, keyEsc)
	topModal[runList](t, m)
}

// TestWorkflowKeysNeedTheirCapabilities: without RunHistory or Inbox the
// chat keys are off, and help does not offer them.
func TestWorkflowKeysNeedTheirCapabilities(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	if m.keys.Runs.Enabled() || m.keys.Inbox.Enabled() {
		t.Error("ctrl+r or ctrl+e enabled without the capabilities")
	}
	m, _ = update(m, keyCtrlR)
	if !m.modals.empty() {
		t.Errorf("ctrl+r opened %T", m.modals.top())
	}
	f := newFakeWorkflows(t)
	m, _ = startWorkflows(t, f)
	m, _ = update(m, keyHelp)
	if view := m.View(); !strings.Contains(view, "ctrl+r run history") || !strings.Contains(view, "ctrl+e approvals inbox") {
		t.Errorf("full help lacks the keys:\n%s", view)
	}
}

// TestProfileListActions: n and enter open the editor, t the tool pane;
// x asks first (Cancel by default) and removes only when confirmed.
func TestProfileListActions(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := startWorkflows(t, f)
	m, _ = update(m, keyCtrlX)
	m, cmd := toPage(t, m, "Profiles")
	m, _ = update(m, awaitMsg[profilesMsg](t, cmd))
	for _, tc := range []struct {
		key  tea.KeyMsg
		want string
	}{{keyRune('n'), "New profile"}, {keyEnter, "Edit profile daily-report"}, {keyRune('t'), "Tools of profile daily-report"}} {
		next, _ := update(m, tc.key)
		if !strings.Contains(next.View(), tc.want) {
			t.Errorf("%s: frame lacks %q:\n%s", tc.key, tc.want, next.View())
		}
	}
	m, _ = update(m, keyRune('x'))
	m, _ = update(m, keyEnter) // Cancel
	if got := f.removedNames(); len(got) != 0 {
		t.Fatalf("removed without confirmation: %v", got)
	}
	m, _ = update(m, keyRune('x'))
	m, _ = update(m, keyRight)
	m, cmd = update(m, keyEnter)
	m, cmd = update(m, awaitMsg[profileRemovedMsg](t, cmd))
	m, _ = update(m, awaitMsg[profilesMsg](t, cmd))
	if got := f.removedNames(); !slices.Equal(got, []string{"daily-report"}) {
		t.Errorf("removed = %v", got)
	}
	if view := flat(m.View()); !strings.Contains(view, "Removed daily-report; its past runs stay in the run history.") ||
		!strings.Contains(view, "No profiles yet") {
		t.Errorf("after removing:\n%s", m.View())
	}
}
