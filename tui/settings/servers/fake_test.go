package servers

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// call is one call the backend received.
type call struct {
	op, id string
	active bool
	in     Input
}

// fakeBackend holds servers; it records every call that changes
// something and fails as told. A test that blocks is held until its
// context ends, and the context's end is sent on testEnded.
type fakeBackend struct {
	mu       sync.Mutex
	servers  []settings.ServerView
	report   TestView
	calls    []call
	errs     map[string]error // by op: list, save, test, active, remove
	block    bool             // TestServer waits for its context
	testDone chan error
}

func (f *fakeBackend) err(op string) error { return f.errs[op] }

func (f *fakeBackend) ListServers(context.Context) ([]settings.ServerView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.servers), f.err("list")
}

func (f *fakeBackend) SaveServer(_ context.Context, in Input) (settings.ServerView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if in.Secret != nil {
		s := *in.Secret
		in.Secret = &s
	}
	f.calls = append(f.calls, call{op: "save", in: in})
	if err := f.err("save"); err != nil {
		return settings.ServerView{}, err
	}
	v := settings.ServerView{ID: in.ID, Name: in.Name, URL: in.URL, HeaderName: in.HeaderName, HasSecret: in.Secret != nil && *in.Secret != ""}
	if v.ID == "" {
		v.ID = "s-new"
	}
	f.servers = append(f.servers, v)
	return v, nil
}

func (f *fakeBackend) TestServer(ctx context.Context, id string) (TestView, error) {
	f.mu.Lock()
	f.calls = append(f.calls, call{op: "test", id: id})
	block, report, err := f.block, f.report, f.err("test")
	f.mu.Unlock()
	if block {
		<-ctx.Done()
		f.testDone <- ctx.Err()
		return TestView{}, ctx.Err()
	}
	return report, err
}

func (f *fakeBackend) SetServerActive(_ context.Context, id string, active bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call{op: "active", id: id, active: active})
	return f.err("active")
}

func (f *fakeBackend) RemoveServer(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call{op: "remove", id: id})
	return f.err("remove")
}

func (f *fakeBackend) got() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func backend() *fakeBackend {
	return &fakeBackend{
		servers: []settings.ServerView{
			{ID: "s-1", Name: "files", URL: "https://files.example/mcp", Active: true, Status: settings.ServerConnected, ToolCount: 4, FetchedAt: kittest.T0.Add(-time.Minute)},
			{ID: "s-2", Name: "github", URL: "http://127.0.0.1:7000/mcp", HeaderName: "Authorization", HasSecret: true},
		},
		report: TestView{ProtocolVersion: "2025-06-18", ServerName: "github", ServerVersion: "1.2", Capabilities: []string{"tools"},
			Tools: []string{"repo_list", "repo_get"}, Rejected: []string{"bad tool: no input schema"}, Summary: "2 tools available", Elapsed: 340 * time.Millisecond},
		errs:     map[string]error{},
		testDone: make(chan error, 1),
	}
}

func newList(b Backend, w, h int) List {
	return New(kittest.Common(w, h), DefaultKeyMap(), b, nil).SetSize(w-4, h-5).(List)
}

// shown returns the list focused and loaded over b.
func shown(t *testing.T, b Backend) List {
	t.Helper()
	p, cmd := newList(b, 80, 18).Focus()
	if cmd == nil {
		t.Fatal("focus did not load")
	}
	return step(t, p.(List), cmd())
}

func step(t *testing.T, l List, msg tea.Msg) List {
	t.Helper()
	next, _, _ := l.Update(msg)
	return next.(List)
}

// update sends msg to a modal.
func update(t *testing.T, m kit.Modal, msgs ...tea.Msg) kit.Modal {
	t.Helper()
	for _, msg := range msgs {
		m, _, _ = m.Update(msg)
	}
	return m
}

// results runs cmd and every Cmd of a batch it returns, once: the
// messages a program would deliver first. A spinner's first tick returns
// at once; its later ticks (from Update) are never run here.
func results(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, results(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// tested returns the TestedMsg among what cmd delivers.
func tested(t *testing.T, cmd tea.Cmd) TestedMsg {
	t.Helper()
	for _, msg := range results(cmd) {
		if m, ok := msg.(TestedMsg); ok {
			return m
		}
	}
	t.Fatal("the Cmd ran no test")
	return TestedMsg{}
}

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyEsc   = tea.KeyMsg{Type: tea.KeyEsc}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyTab   = tea.KeyMsg{Type: tea.KeyTab}
	keyRight = tea.KeyMsg{Type: tea.KeyRight}
	keyCtrlT = tea.KeyMsg{Type: tea.KeyCtrlT}
	keyCtrlR = tea.KeyMsg{Type: tea.KeyCtrlR}
)

func letter(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }
