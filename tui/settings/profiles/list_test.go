package profiles

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
	"vouch/tui/settings/settingstest"
	"vouch/tui/settings/tools"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// fakeProfiles is a Backend over a few profiles; it records what it is
// asked to save and remove, and fails as told.
type fakeProfiles struct {
	mu       sync.Mutex
	profiles []Summary
	saved    []Input
	removed  []string
	listErr  error
	saveErr  error
}

func (f *fakeProfiles) ListProfiles(context.Context) ([]Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Summary(nil), f.profiles...), f.listErr
}

func (f *fakeProfiles) Profile(_ context.Context, name string) (Profile, error) {
	for _, p := range f.profiles {
		if p.Name == name {
			return Profile{Name: p.Name, Definition: p.Definition, Revision: p.Revision,
				Schedule: &ScheduleInput{Every: "1h", Task: "Summarise the day."}}, nil
		}
	}
	return Profile{}, errors.New("no profile " + name)
}

func (f *fakeProfiles) SaveProfile(_ context.Context, in Input) (Profile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.saveErr != nil {
		return Profile{}, f.saveErr
	}
	f.saved = append(f.saved, in)
	return Profile{Name: in.Name, Definition: in.Definition, Schedule: in.Schedule, Revision: 1}, nil
}

func (f *fakeProfiles) RemoveProfile(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, name)
	return nil
}

func (f *fakeProfiles) Definitions(context.Context) ([]DefinitionChoice, error) {
	return []DefinitionChoice{{Name: "notes", Kind: "role", Revision: 1}}, nil
}

func (f *fakeProfiles) ProfileTools(context.Context, string) (ToolSelection, error) {
	return ToolSelection{}, nil
}

func (f *fakeProfiles) SetProfileTool(context.Context, string, string, bool) error { return nil }

func (f *fakeProfiles) SkillsForProfile(context.Context, string) ([]SkillChoice, error) {
	return []SkillChoice{{Name: "release-notes", Version: "1"}}, nil
}

// runner is a Backend that can also start a profile now.
type runner struct{ *fakeProfiles }

func (runner) RunProfile(context.Context, string, string) (string, error) { return "run-1", nil }

func newFake() *fakeProfiles {
	return &fakeProfiles{profiles: []Summary{
		{Name: "daily-report", Definition: "notes", Kind: "role", Revision: 3, Tools: 2, Skills: 1, Schedule: "every 1h",
			Updated: kittest.T0.Add(-time.Hour)},
		{Name: kittest.Hostile, Definition: "notes", Revision: 1},
	}}
}

func keys() KeyMap {
	return KeyMap{List: DefaultListKeyMap(), RunNow: DefaultRunKeyMap(), Editor: DefaultEditorKeyMap(), Tools: tools.DefaultKeyMap(),
		Confirm: kit.DefaultConfirmKeyMap()}
}

// shown is the page over b, focused and loaded, at the size the frame
// gives it.
func shown(t *testing.T, b Backend) List {
	t.Helper()
	p, cmd := New(kittest.Common(80, 18), keys(), b).SetSize(76, 13).Focus()
	next, _, _ := p.Update(kittest.Run(t, cmd))
	return next.(List)
}

func press(l List, k tea.KeyMsg) (List, kit.Action, tea.Cmd) {
	next, a, cmd := l.Update(k)
	return next.(List), a, cmd
}

// TestListShowsProfiles (SPEC H2, L2): each profile with its definition
// and kind, revision, counts and schedule ("—" without one); a hostile
// name is drawn neutralised, and the page fits Settings at both sizes.
func TestListShowsProfiles(t *testing.T) {
	l := shown(t, newFake())
	v := ansi.Strip(l.View())
	for _, want := range []string{"daily-report", "notes (role)", "every 1h", "—", "Profile", "Schedule"} {
		if !strings.Contains(v, want) {
			t.Errorf("the page lacks %q:\n%s", want, v)
		}
	}
	kittest.Clean(t, l.View())
	for _, sz := range kittest.Sizes {
		m := settingstest.Framed(New(kittest.Common(sz.W, sz.H), keys(), newFake()), sz.W, sz.H)
		kittest.Fits(t, m.View(), sz.W, sz.H)
	}
}

// TestListStates: no backend says so and offers no key; an empty list
// says how to make one; a failed list is one sentence.
func TestListStates(t *testing.T) {
	none := New(kittest.Common(80, 18), keys(), nil).SetSize(76, 13).(List)
	if v := none.View(); !strings.Contains(v, "Agent Profiles are not available here.") {
		t.Errorf("nil backend: %q", v)
	}
	if _, a, _ := press(none, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'n'}}); a != nil {
		t.Errorf("n without a backend answered %#v", a)
	}
	if v := ansi.Strip(shown(t, &fakeProfiles{}).View()); !strings.Contains(v, "No profiles yet.") || !strings.Contains(v, "n makes one") {
		t.Errorf("empty: %s", v)
	}
	bad := &fakeProfiles{listErr: errors.New("the database is closed")}
	if v := ansi.Strip(shown(t, bad).View()); !strings.Contains(v, "Could not list the profiles: the database is closed.") {
		t.Errorf("failure: %s", v)
	}
}

// TestListKeys: n and enter open the editor (new, and the selected
// profile), t the tool pane, g the run prompt only with a Runner, x a
// confirmation whose Cmd removes the selected profile, esc closes.
func TestListKeys(t *testing.T) {
	b := newFake()
	l := shown(t, b)
	letter := func(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }
	open := func(k tea.KeyMsg, from List) kit.Modal {
		t.Helper()
		_, a, _ := press(from, k)
		o, ok := a.(kit.OpenModal)
		if !ok {
			t.Fatalf("%v answered %#v, want a modal", k, a)
		}
		return o.Modal
	}
	if e, ok := open(letter('n'), l).(Editor); !ok || e.Value(FieldName) != "" {
		t.Errorf("n opened %T with name %q, want a new profile's editor", e, e.Value(FieldName))
	}
	if e, ok := open(tea.KeyMsg{Type: tea.KeyEnter}, l).(Editor); !ok || e.Value(FieldName) != "daily-report" {
		t.Errorf("enter opened %T on %q, want daily-report's editor", e, e.Value(FieldName))
	}
	if _, ok := open(letter('t'), l).(ToolsPane); !ok {
		t.Error("t opened no tool pane")
	}
	if _, a, _ := press(l, letter('g')); a != nil {
		t.Errorf("g without a Runner answered %#v", a)
	}
	if _, ok := open(letter('g'), shown(t, runner{b})).(RunPrompt); !ok {
		t.Error("g with a Runner opened no run prompt")
	}
	c, ok := open(letter('x'), l).(kit.Confirm)
	if !ok {
		t.Fatalf("x opened %T, want a confirmation", c)
	}
	if v := ansi.Strip(c.View()); !strings.Contains(v, "Remove the profile daily-report") {
		t.Errorf("confirmation: %s", v)
	}
	if _, a, _ := press(l, tea.KeyMsg{Type: tea.KeyEsc}); a != (kit.CloseModal{}) {
		t.Errorf("esc answered %#v", a)
	}
	// What the confirmed remove reports: a notice, and a reload.
	next, _, cmd := l.Update(kittest.Run(t, removeProfile(b, "daily-report")))
	if v := ansi.Strip(next.View()); !strings.Contains(v, "Removed daily-report; its past runs stay in the run history.") || cmd == nil {
		t.Errorf("after remove (reload %v): %s", cmd != nil, v)
	}
	if len(b.removed) != 1 || b.removed[0] != "daily-report" {
		t.Errorf("removed %q", b.removed)
	}
}

// TestEditorSaves (SPEC H2): the editor loads the profile into its form;
// a schedule that does not read is refused on its field with nothing
// saved; a good one saves once and closes; the backend's refusal stays
// under the form.
func TestEditorSaves(t *testing.T) {
	b := newFake()
	var e kit.Modal = NewEditor(kittest.Common(80, 24), keys(), b, "daily-report").SetSize(80, 24)
	if e.Init() == nil {
		t.Fatal("the editor loads nothing")
	}
	e, _, _ = e.Update(kittest.Run(t, loadProfileForm(b, "daily-report"))) // Init's load, without its cursor blink
	ed := e.(Editor)
	if ed.Value(FieldSchedule) != "every 1h" || ed.Value(FieldTask) != "Summarise the day." {
		t.Fatalf("loaded schedule %q task %q", ed.Value(FieldSchedule), ed.Value(FieldTask))
	}
	e = ed.WithValue(FieldSchedule, "every now and then")
	e, _, cmd := e.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if ed := e.(Editor); ed.ErrField() != FieldSchedule || cmd != nil || len(b.saved) != 0 {
		t.Fatalf("bad schedule: error %q on field %d, cmd %v, saved %d", ed.Err(), ed.ErrField(), cmd != nil, len(b.saved))
	}
	kittest.Clean(t, e.View())
	e = e.(Editor).WithValue(FieldSchedule, "every 2h")
	e, _, cmd = e.Update(tea.KeyMsg{Type: tea.KeyEnter})
	e, a, _ := e.Update(kittest.Run(t, cmd))
	if a != (kit.CloseModal{}) || len(b.saved) != 1 || b.saved[0].Schedule == nil || b.saved[0].Schedule.Every != "2h" || b.saved[0].Create {
		t.Fatalf("save: action %#v, saved %+v", a, b.saved)
	}
	b.saveErr = errors.New("the profile name is taken")
	e, _, cmd = e.Update(tea.KeyMsg{Type: tea.KeyEnter})
	e, a, _ = e.Update(kittest.Run(t, cmd))
	if a != nil || !strings.Contains(e.(Editor).Err(), "the profile name is taken") {
		t.Errorf("refused save: action %#v, error %q", a, e.(Editor).Err())
	}
}

var _ settings.Page = List{}
