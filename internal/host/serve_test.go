package host

import (
	"strings"
	"testing"

	"vouch/internal/sessiond"
	"vouch/tui"
)

// TestAttachedMsgSaysTakeOver: the interface learns whether an attach is
// a take-over (ctrl+t) and its notice (SPEC K4, D7; issue 30).
func TestAttachedMsgSaysTakeOver(t *testing.T) {
	for _, a := range []sessiond.Attach{{}, {TakeOver: true}, {Notice: "n"}} {
		got, ok := attachedMsg(a).(tui.AttachedMsg)
		if !ok || got.TakeOver != a.TakeOver || got.Notice != a.Notice {
			t.Fatalf("attachedMsg(%+v) = %#v", a, attachedMsg(a))
		}
	}
}

// TestSessionNotice: a terminal attaching to a running session is told
// when its model flags differ from the session's (not silently ignored)
// or when it comes from another directory than the session's workspace.
func TestSessionNotice(t *testing.T) {
	h := &sessionHost{workspace: "/w", flags: map[string]string{"model-url": "http://a/v1"}}
	for _, tc := range []struct {
		name  string
		hello sessiond.Hello
		want  string
	}{
		{"same place, no flags", sessiond.Hello{Cwd: "/w"}, ""},
		{"same flag", sessiond.Hello{Cwd: "/w", Flags: map[string]string{"model-url": "http://a/v1"}}, ""},
		{"other model url", sessiond.Hello{Cwd: "/w", Flags: map[string]string{"model-url": "http://b/v1"}}, "without your --model-url"},
		{"other model", sessiond.Hello{Cwd: "/w", Flags: map[string]string{"model": "m2"}}, "without your --model"},
		{"other directory", sessiond.Hello{Cwd: "/elsewhere"}, "This session's workspace is /w."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := h.notice(tc.hello)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("notice = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestApprovalsWaitingCountsTheChat: `vouch sessions` and `doctor` count a
// chat approval waiting, not only inbox items (issue 23).
func TestApprovalsWaitingCountsTheChat(t *testing.T) {
	for _, tc := range []struct {
		inbox int
		shown bool
		want  int
	}{{0, false, 0}, {0, true, 1}, {2, true, 2}, {3, false, 3}} {
		if got := approvalsWaiting(tc.inbox, tc.shown); got != tc.want {
			t.Errorf("approvalsWaiting(%d, %v) = %d, want %d", tc.inbox, tc.shown, got, tc.want)
		}
	}
}
