package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/internal/app"
)

// TestSettingsCommand walks `vouch settings` through list, set, get,
// reset and its refusals, in-process through run (SPEC L4, M; issue 15).
func TestSettingsCommand(t *testing.T) {
	state := t.TempDir()
	out, _ := cli(t, state, "", exitOK, "settings")
	for _, want := range []string{"KEY", "notify  ", "approvals (default)", "notify-terminal", "auto (default)", "long-turn", "30s (default)", "session-idle", "5m (default)"} {
		if !strings.Contains(out, want) {
			t.Errorf("settings: %q missing from\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("line of %d columns: %q", len([]rune(line)), line)
		}
	}

	out, _ = cli(t, state, "", exitOK, "settings", "set", "notify", "all")
	if !strings.Contains(out, "notify") || !strings.Contains(out, "all") || strings.Contains(out, "(default)") {
		t.Errorf("set notify all: %q", out)
	}
	if out, _ = cli(t, state, "", exitOK, "settings", "get", "notify"); out != "all\n" {
		t.Errorf("get notify = %q, want all", out)
	}
	cli(t, state, "", exitOK, "settings", "set", "long-turn", "90s")

	out, _ = cli(t, state, "", exitOK, "settings", "--json")
	var vals []app.SettingValue
	if err := json.Unmarshal([]byte(out), &vals); err != nil {
		t.Fatalf("settings --json: %v\n%s", err, out)
	}
	got := map[string]app.SettingValue{}
	for _, v := range vals {
		got[v.Key] = v
	}
	if v := got["notify"]; v.Value != "all" || !v.IsSet || v.Default != "approvals" {
		t.Errorf("notify = %+v", v)
	}
	if v := got["long-turn"]; v.Value != "1m30s" || v.Default != "30s" {
		t.Errorf("long-turn = %+v", v)
	}

	cli(t, state, "", exitOK, "settings", "reset", "notify")
	if out, _ = cli(t, state, "", exitOK, "settings", "get", "notify", "--json"); !strings.Contains(out, `"value": "approvals"`) || !strings.Contains(out, `"set": false`) {
		t.Errorf("after reset: %s", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"settings", "set", "notify", "loud"}, `notify cannot be "loud"; use off, bell, approvals or all`},
		{[]string{"settings", "set", "colour", "red"}, `unknown setting "colour"; the settings are notify, notify-terminal, long-turn, session-idle`},
		{[]string{"settings", "set", "notify"}, "vouch settings set takes a KEY and a VALUE"},
		{[]string{"settings", "frob"}, "unknown subcommand 'vouch settings frob'"},
	} {
		_, errOut := cli(t, state, "", exitUsage, tc.args...)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("vouch %s: stderr %q, want %q", strings.Join(tc.args, " "), errOut, tc.want)
		}
	}
	if out, _ = cli(t, state, "", exitOK, "settings", "get", "notify"); out != "approvals\n" {
		t.Errorf("a refused set changed notify: %q", out)
	}
}
