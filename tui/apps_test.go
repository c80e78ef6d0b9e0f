package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tool"
	"vouch/tui/approval"
	"vouch/tui/apps"
	"vouch/tui/clipboard"
)

// fakeApps is an AppHost whose events the test publishes.
type fakeApps struct {
	events   chan AppEvent
	mu       sync.Mutex
	opened   []string
	launched bool
}

func newFakeApps() *fakeApps { return &fakeApps{events: make(chan AppEvent, 8)} }

func (f *fakeApps) AppEvents() <-chan AppEvent { return f.events }

func (f *fakeApps) OpenApp(_ context.Context, viewID string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened = append(f.opened, viewID)
	return f.launched, nil
}

// withApps starts a model with host as its AppHost, installed after the
// start-up Cmds ran, so no reader started by Init competes for the events.
func withApps(t *testing.T, b *fakeBackend, host *fakeApps, opts Options) Model {
	t.Helper()
	m := startModel(t, b, opts)
	m.opts.Apps = host
	return m
}

// appEvent publishes ev and applies the message the reading Cmd returns.
func appEvent(t *testing.T, m Model, f *fakeApps, ev AppEvent) (Model, tea.Cmd) {
	t.Helper()
	f.events <- ev
	return update(m, awaitMsg[apps.EventMsg](t, apps.Wait(f)))
}

const appURL = "http://127.0.0.1:40001/v/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"

// TestAppAvailable: the tool call's item says "App available — press o"
// with the URL, and the ssh -L line over SSH; o opens it (no browser: the
// URL is copied) only while the input is empty and the app is new (SPEC J4).
func TestAppAvailable(t *testing.T) {
	b := newFakeBackend()
	host := newFakeApps()
	clip := &syncBuffer{}
	m := withApps(t, b, host, Options{Clipboard: clip})
	m, wait := sendText(t, m, "What time is it?")
	call := agent.ToolCall{ID: "c1", CorrelationID: "corr-1", WireName: "mcp_get_time", Identity: "mcp:s:get-time"}
	m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: call}, agent.ToolCallFinished{Call: call, Result: "12:00"}, agent.Done{Reason: agent.StopDone})

	m, _ = appEvent(t, m, host, AppAvailable{ViewID: "v1", CorrelationID: "corr-1", Tool: "get-time", Server: "basic",
		URL: appURL, SSH: "ssh -N -L 40001:127.0.0.1:40001 -L 40002:127.0.0.1:40002 box"})
	view := m.View()
	for _, want := range []string{"App available — press o", "ssh -N -L 40001:127.0.0.1:40001"} {
		if !strings.Contains(strings.ReplaceAll(view, "\n", " "), want) {
			t.Errorf("the screen lacks %q:\n%s", want, view)
		}
	}
	if !strings.Contains(m.chat.FindTool(call).Note, appURL) {
		t.Errorf("the tool's note lacks the URL: %q", m.chat.FindTool(call).Note)
	}

	// Typing into the input: o is a letter then.
	m = typeText(m, "so")
	if got := m.input.Value(); got != "so" {
		t.Fatalf("input %q: o was taken from typing", got)
	}
	m.input.Reset()
	m.syncKeys()
	m, cmd := update(m, keyRune('o'))
	opened := awaitMsg[apps.OpenedMsg](t, cmd)
	m, cmd = update(m, opened)
	if copied := awaitMsg[clipboard.CopiedMsg](t, cmd); copied.Err != nil {
		t.Fatal(copied.Err)
	}
	if host.opened[0] != "v1" || !strings.Contains(clip.String(), "\x1b]52;c;") {
		t.Errorf("opened %v, clipboard %q", host.opened, clip.String())
	}
	// Once opened, o types again; alt+o still opens.
	m, _ = update(m, keyRune('o'))
	if m.input.Value() != "o" {
		t.Fatalf("input %q after the app was opened", m.input.Value())
	}
	host.launched = true
	_, cmd = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'o'}, Alt: true})
	if got := awaitMsg[apps.OpenedMsg](t, cmd); !got.Launched {
		t.Errorf("alt+o did not launch: %+v", got)
	}
}

func TestAppProblemKeepsResult(t *testing.T) {
	b := newFakeBackend()
	host := newFakeApps()
	m := withApps(t, b, host, Options{})
	m, wait := sendText(t, m, "time")
	call := agent.ToolCall{ID: "c1", CorrelationID: "corr-1", WireName: "mcp_get_time"}
	m, _ = deliver(t, m, b, wait, agent.ToolCallStarted{Call: call}, agent.ToolCallFinished{Call: call, Result: "12:00"}, agent.Done{Reason: agent.StopDone})
	m, _ = appEvent(t, m, host, AppProblem{CorrelationID: "corr-1", Tool: "get-time", Server: "basic",
		Sentence: "The app resource has type \"text/html\"\x1b[2J"})
	it := m.chat.FindTool(call)
	if it.Result != "12:00" || !strings.Contains(it.Note, "no app view") || strings.ContainsRune(it.Note, 0x1b) {
		t.Fatalf("result %q note %q", it.Result, it.Note)
	}
}

// TestAppApprovalUsesThePane: a view's tools/call waits in the approval
// pane with its grace, outlives the end of a run, and its decision reaches
// the view exactly once (SPEC J4, D4).
func TestAppApprovalUsesThePane(t *testing.T) {
	b := newFakeBackend()
	host := newFakeApps()
	clk := &clock{now: t0}
	m := withApps(t, b, host, Options{Now: clk.Now})
	m, wait := sendText(t, m, "hi") // a run is going on
	reply := make(chan agent.Decision, 2)
	call := agent.ToolCall{CorrelationID: "app-1", Identity: "mcp:s:get-time", Arguments: `{}`}
	m, _ = appEvent(t, m, host, AppApproval{Server: "basic", Request: agent.ApprovalRequested{Call: call,
		Tool: tool.Def{Identity: call.Identity}, Reason: "new tool", Reply: reply}})
	a := topApproval(t, m)
	if !a.Request().App {
		t.Fatal("the pane is not marked as an app's")
	}
	m = pressAll(t, m, keyRune('a')) // within the grace: nothing
	// The run ends meanwhile: the app's pane stays.
	m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopDone})
	topApproval(t, m)
	m = tabToPane(m, clk) // the early "a" went into the message (SPEC D7)
	m, cmd := update(m, keyRune('a'))
	if d := decided(t, cmd, reply); !d.Allow {
		t.Fatalf("decision %+v, want allow", d)
	}
	if !m.modals.empty() {
		t.Fatalf("the pane stayed: %T", m.modals.top())
	}
	select {
	case d := <-reply:
		t.Fatalf("a second decision: %+v", d)
	default:
	}

	// Stop on an app's pane denies: there is no run to stop.
	reply2 := make(chan agent.Decision, 2)
	m, _ = appEvent(t, m, host, AppApproval{Server: "basic", Request: agent.ApprovalRequested{Call: agent.ToolCall{CorrelationID: "app-2", Identity: call.Identity, Arguments: `{}`},
		Tool: tool.Def{Identity: call.Identity}, Reply: reply2}})
	clk.advance(time.Second)
	_, cmd = update(m, keyCtrlC)
	if d := decided(t, cmd, reply2); d.Allow {
		t.Fatal("stop allowed the call")
	}
}

func TestAppConsent(t *testing.T) {
	tests := []struct {
		name  string
		ev    AppConsent
		keys  []tea.KeyMsg
		want  bool
		input string
	}{
		{"enter refuses by default", AppConsent{Tool: "t", Server: "s", Link: "https://example.com"}, []tea.KeyMsg{keyEnter}, false, ""},
		{"esc refuses", AppConsent{Tool: "t", Server: "s", Link: "https://example.com"}, []tea.KeyMsg{keyEsc}, false, ""},
		{"right then enter opens", AppConsent{Tool: "t", Server: "s", Link: "https://example.com"}, []tea.KeyMsg{{Type: tea.KeyRight}, keyEnter}, true, ""},
		{"a message goes to the input", AppConsent{Tool: "t", Server: "s", Message: "summarise\x1b[31m this"}, []tea.KeyMsg{{Type: tea.KeyRight}, keyEnter}, true, "summarise this"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBackend()
			host := newFakeApps()
			clk := &clock{now: t0}
			m := withApps(t, b, host, Options{Now: clk.Now})
			reply := make(chan bool, 2)
			ev := tt.ev
			ev.Reply = reply
			m, _ = appEvent(t, m, host, ev)
			if _, ok := m.modals.top().(approval.Consent); !ok {
				t.Fatalf("top modal %T", m.modals.top())
			}
			if strings.ContainsRune(m.View(), 0x1b) && strings.Contains(m.View(), "[31m") {
				t.Fatal("the app's text reached the screen with its escape")
			}
			m = pressAll(t, m, keyEnter) // the grace period
			clk.advance(time.Second)
			var cmd tea.Cmd
			for _, k := range tt.keys {
				m, cmd = update(m, k)
			}
			msg := awaitMsg[approval.ConsentAnsweredMsg](t, cmd)
			if got := <-reply; got != tt.want {
				t.Fatalf("answer %v, want %v", got, tt.want)
			}
			m, cmd = update(m, msg)
			if tt.want && tt.ev.Link != "" {
				if c := awaitMsg[clipboard.CopiedMsg](t, cmd); c.Err != nil || c.What != "the app's link" {
					t.Fatalf("the agreed link was not copied: %+v", c)
				}
			}
			if tt.input != "" && m.input.Value() != tt.input {
				t.Fatalf("input %q, want %q", m.input.Value(), tt.input)
			}
			if !m.modals.empty() {
				t.Fatal("the consent pane stayed")
			}
		})
	}
}
