package app

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vouch/store/storetest"
)

// TestSettingsRegistry: the known keys, their defaults, setting,
// normalising, resetting (SPEC L4; issue 15).
func TestSettingsRegistry(t *testing.T) {
	a := NewSettings(storetest.MustOpen(t))
	vals, err := a.Values()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vals {
		got = append(got, v.Key+"="+v.Value)
		if v.IsSet || v.Value != v.Default {
			t.Errorf("%s: fresh value %q (set %v), want its default %q", v.Key, v.Value, v.IsSet, v.Default)
		}
	}
	if want := "notify=approvals notify-terminal=auto long-turn=30s session-idle=5m managed-lock= allowed-signers= require-signed-skills=off"; strings.Join(got, " ") != want {
		t.Errorf("settings = %s, want %s", strings.Join(got, " "), want)
	}
	for _, tc := range []struct{ key, in, stored string }{
		{SettingNotify, " ALL ", "all"},
		{SettingNotifyTerminal, "OSC777", "osc777"},
		{SettingLongTurn, "90s", "1m30s"},
		{SettingLongTurn, "2m", "2m"},
		{sessionIdleKey, "1h", "1h"},
		{SettingManagedLock, " /etc/vouch/../vouch/vouch.lock ", "/etc/vouch/vouch.lock"},
		{SettingRequireSigned, "ON", "on"},
	} {
		v, err := a.Set(tc.key, tc.in)
		if err != nil || v.Value != tc.stored || !v.IsSet {
			t.Errorf("set %s %q = %+v, %v; want %q", tc.key, tc.in, v, err, tc.stored)
		}
	}
	if d, err := a.Duration(SettingLongTurn); err != nil || d != 2*time.Minute {
		t.Errorf("long-turn = %v, %v", d, err)
	}
	v, err := a.Reset(SettingNotify)
	if err != nil || v.Value != "approvals" || v.IsSet {
		t.Errorf("reset notify = %+v, %v", v, err)
	}
}

// TestSettingsValidation: a bad value or key is a Usage error of one
// sentence that lists what is allowed, and nothing is stored.
func TestSettingsValidation(t *testing.T) {
	a := NewSettings(storetest.MustOpen(t))
	for _, tc := range []struct{ key, value, want string }{
		{SettingNotify, "loud", `notify cannot be "loud"; use off, bell, approvals or all`},
		{SettingNotifyTerminal, "osc52", `notify-terminal cannot be "osc52"; use auto, bell, osc9, osc777 or osc99`},
		{SettingLongTurn, "0s", `long-turn cannot be "0s"; use a duration from 1s to 24h, such as 30s or 2m`},
		{SettingLongTurn, "soon", `long-turn cannot be "soon"; use a duration from 1s to 24h, such as 30s or 2m`},
		{sessionIdleKey, "1s", `session-idle cannot be "1s"; use a duration from 10s to 168h, such as 5m or 1h`},
		{SettingAllowedSigners, "allowed_signers", `allowed-signers cannot be "allowed_signers"; use the absolute path of an allowed_signers file`},
		{SettingRequireSigned, "maybe", `require-signed-skills cannot be "maybe"; use on or off`},
		{"colour", "red", `unknown setting "colour"; the settings are notify, notify-terminal, long-turn, session-idle, managed-lock, allowed-signers, require-signed-skills`},
	} {
		_, err := a.Set(tc.key, tc.value)
		var e *Error
		if !errors.As(err, &e) || e.Kind != Usage || err.Error() != tc.want {
			t.Errorf("set %s %q: %v, want usage error %q", tc.key, tc.value, err, tc.want)
		}
		if strings.Count(err.Error(), ". ") > 0 {
			t.Errorf("%q is more than one sentence", err)
		}
	}
	if v, _ := a.Value(SettingNotify); v.IsSet {
		t.Error("a refused value was stored")
	}
}
