package servers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
)

func openReport(b Backend, v settings.ServerView, w, h int) kit.Modal {
	return newReport(kittest.Common(w, h), DefaultReportKeyMap(), b, v).SetSize(w, h)
}

var github = settings.ServerView{ID: "s-2", Name: "github", URL: "http://127.0.0.1:7000/mcp"}

// TestReportActivatesOnlyAfterATestThatConnected: the report tests exactly
// the server it was opened on; while the test runs, a does nothing; once
// it connected, a activates exactly that server; after a failed test, a
// still does nothing and the failure is one sentence; esc abandons a
// running test by cancelling its context (SPEC B2, B3).
func TestReportActivatesOnlyAfterATestThatConnected(t *testing.T) {
	t.Run("test, then activate", func(t *testing.T) {
		b := backend()
		r := openReport(b, github, 80, 18)
		msg := tested(t, r.Init())
		if _, _, cmd := r.Update(letter('a')); cmd != nil {
			t.Fatal("a activated while the test ran")
		}
		if !strings.Contains(r.View(), "Testing… nothing is registered by a test.") {
			t.Errorf("no testing line:\n%s", r.View())
		}
		r = update(t, r, msg)
		v := r.View()
		for _, want := range []string{"● Connected in 340ms", "2025-06-18", "github 1.2", "repo_list, repo_get", "✗ bad tool: no input schema", "Press a to activate"} {
			if !strings.Contains(v, want) {
				t.Errorf("the report does not show %q:\n%s", want, v)
			}
		}
		r, _, cmd := r.Update(letter('a'))
		if cmd == nil {
			t.Fatal("a did not activate after a test that connected")
		}
		done := cmd().(ActiveMsg)
		want := []call{{op: "test", id: "s-2"}, {op: "active", id: "s-2", active: true}}
		if !slices.Equal(b.got(), want) || !done.Activated() || done.Name() != "github" {
			t.Fatalf("the backend got %v, want %v", b.got(), want)
		}
		if _, _, again := r.Update(letter('a')); again != nil {
			t.Error("a second a acted while activating")
		}
		r = update(t, r, done)
		if v := r.View(); !strings.Contains(v, "Activated: its tools are offered from now on.") {
			t.Errorf("after activating:\n%s", v)
		}
		if _, _, cmd := r.Update(letter('a')); cmd != nil {
			t.Error("an active server can be activated again")
		}
	})
	t.Run("a failed test offers no activation", func(t *testing.T) {
		b := backend()
		b.errs["test"] = errors.New("connection refused")
		r := openReport(b, github, 80, 18)
		r = update(t, r, tested(t, r.Init()))
		if v := r.View(); !strings.Contains(v, "✗ The test failed: connection refused.") || !strings.Contains(v, "Nothing was registered.") {
			t.Errorf("failed test:\n%s", v)
		}
		if _, _, cmd := r.Update(letter('a')); cmd != nil {
			t.Error("a activated after a failed test")
		}
		_, _, retest := r.Update(letter('r'))
		if retest == nil {
			t.Fatal("r did not test again")
		}
	})
	t.Run("a failed activation is one sentence", func(t *testing.T) {
		b := backend()
		b.errs["active"] = errors.New("the catalog is locked")
		r := openReport(b, github, 80, 18)
		r = update(t, r, tested(t, r.Init()))
		r, _, cmd := r.Update(letter('a'))
		r = update(t, r, cmd())
		if v := r.View(); !strings.Contains(v, "✗ Could not activate the server: the catalog is locked.") {
			t.Errorf("failed activation:\n%s", v)
		}
	})
	t.Run("esc abandons a running test", func(t *testing.T) {
		b := backend()
		b.block = true
		r := openReport(b, github, 80, 18)
		msgs := make(chan []tea.Msg, 1)
		go func() { msgs <- results(r.Init()) }()
		_, action, _ := r.Update(keyEsc)
		if action != (kit.CloseModal{}) {
			t.Fatalf("esc: action %#v, want close", action)
		}
		if err := <-b.testDone; !errors.Is(err, context.Canceled) {
			t.Errorf("the test's context ended with %v, want canceled", err)
		}
		for _, msg := range <-msgs {
			if m, ok := msg.(TestedMsg); ok {
				if _, _, cmd := r.Update(m); cmd != nil {
					t.Error("the abandoned test's answer acted")
				}
			}
		}
	})
	t.Run("an answer of another test is dropped", func(t *testing.T) {
		b := backend()
		r := openReport(b, github, 80, 18)
		r = update(t, r, TestedMsg{run: &testRun{cancel: func() {}}, err: errors.New("stale")})
		if strings.Contains(r.View(), "Stale") {
			t.Errorf("another test's answer counted:\n%s", r.View())
		}
	})
}

// TestReportNeutralisesServerText: what a server says about itself in a
// test — its protocol, name, version, capabilities, tools, rejections and
// summary — and a failure quoting it reach the report neutralised (SPEC
// D2, D3).
func TestReportNeutralisesServerText(t *testing.T) {
	v := settings.ServerView{ID: "s-h", Name: kittest.Hostile, URL: kittest.Hostile}
	for _, tc := range []struct {
		name   string
		report TestView
		err    error
	}{
		{"report", TestView{ProtocolVersion: kittest.Hostile, ServerName: kittest.Hostile, ServerVersion: kittest.Hostile, Capabilities: []string{kittest.Hostile},
			Tools: []string{kittest.Hostile}, Rejected: []string{kittest.Hostile, kittest.Hostile, kittest.Hostile, kittest.Hostile}, Summary: kittest.Hostile}, nil},
		{"failure", TestView{}, errors.New(kittest.Hostile)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := backend()
			b.report, b.errs["test"] = tc.report, tc.err
			r := openReport(b, v, 80, 18)
			kittest.Clean(t, r.View())
			kittest.Clean(t, update(t, r, tested(t, r.Init())).View())
		})
	}
}

// TestReportFits: a long report — many tools, rejections, capabilities —
// and a long failure fit the area above the input at 80x24 and 60x16.
func TestReportFits(t *testing.T) {
	b := backend()
	b.report.Capabilities = []string{"tools", "resources", "prompts", "logging", "completions", "elicitation"}
	for i := range 40 {
		b.report.Tools = append(b.report.Tools, fmt.Sprintf("repo_operation_%02d", i))
		b.report.Rejected = append(b.report.Rejected, fmt.Sprintf("tool_%02d: %s", i, strings.Repeat("no input schema ", 5)))
	}
	long := settings.ServerView{ID: "s-2", Name: strings.Repeat("a long server name ", 5), URL: "https://" + strings.Repeat("host.", 30) + "/mcp"}
	for _, sz := range kittest.Sizes {
		for _, tc := range []struct {
			name string
			err  error
		}{{"connected", nil}, {"failed", errors.New(strings.Repeat("the server closed the connection ", 8))}} {
			t.Run(fmt.Sprintf("%dx%d_%s", sz.W, sz.H, tc.name), func(t *testing.T) {
				b.errs["test"] = tc.err
				r := openReport(b, long, sz.W, sz.H)
				kittest.Fits(t, r.View(), sz.W, sz.H)
				r = update(t, r, tested(t, r.Init()))
				v := r.View()
				kittest.Fits(t, v, sz.W, sz.H)
				want := map[bool]string{true: "Press a to activate", false: "✗ The test failed"}[tc.err == nil]
				if !strings.Contains(v, want) {
					t.Errorf("%q does not show:\n%s", want, v)
				}
			})
		}
	}
}
