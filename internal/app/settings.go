package app

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"vouch/internal/notify"
)

// The settings registry: the keys a person may set with `vouch settings`
// and the Settings pages, each with its default and its allowed values.
// Values are stored as text in the database's settings (as SettingModel
// is); an empty stored value means the default.

// The known setting keys.
const (
	// SettingNotify is the notification level: off, bell, approvals, all
	// (SPEC L4).
	SettingNotify = "notify"
	// SettingNotifyTerminal overrides the detected notification sequence:
	// auto, osc9, osc777, osc99, bell.
	SettingNotifyTerminal = "notify-terminal"
	// SettingLongTurn is how long a turn runs before its end is notified.
	SettingLongTurn = "long-turn"
	// SettingManagedLock names the managed lockfile (SPEC N3); the
	// environment's VOUCH_MANAGED_LOCK comes first.
	SettingManagedLock = "managed-lock"
	// SettingAllowedSigners names the allowed_signers file whose keys may
	// sign lockfiles and skills (SPEC N4, N5).
	SettingAllowedSigners = "allowed-signers"
	// SettingRequireSigned refuses unsigned and untrusted skill packages
	// (SPEC N5).
	SettingRequireSigned = "require-signed-skills"
)

// sessionIdleKey is the session process's idle setting (SPEC K4),
// reserved here for the session process (its SettingSessionIdle).
const sessionIdleKey = "session-idle"

// SettingSpec describes one known setting.
type SettingSpec struct {
	Key     string
	Default string
	// Allowed says what values it takes, as in the error of a bad one.
	Allowed string
	// Help is one line on what it does.
	Help string
	// parse validates a value and returns it as stored, or one sentence
	// that lists the allowed values.
	parse func(string) (string, error)
}

// SettingSpecs returns the known settings, in the order `vouch settings`
// lists them.
func SettingSpecs() []SettingSpec {
	return []SettingSpec{
		{Key: SettingNotify, Default: string(notify.DefaultLevel), Allowed: "off, bell, approvals or all",
			Help: "terminal notifications: off, the bell, approvals, or all events",
			parse: func(v string) (string, error) {
				l, err := notify.ParseLevel(v)
				return string(l), err
			}},
		{Key: SettingNotifyTerminal, Default: "auto", Allowed: "auto, bell, osc9, osc777 or osc99",
			Help: "the notification sequence; auto detects it from the terminal",
			parse: func(v string) (string, error) {
				k, auto, err := notify.ParseKind(v)
				if auto {
					return "auto", err
				}
				return k.String(), err
			}},
		{Key: SettingLongTurn, Default: "30s", Allowed: "a duration from 1s to 24h, such as 30s or 2m",
			Help:  "a turn that runs longer is notified when it ends (level all)",
			parse: durationIn(time.Second, 24*time.Hour)},
		{Key: sessionIdleKey, Default: "5m", Allowed: "a duration from 10s to 168h, such as 5m or 1h",
			Help:  "how long an idle session process waits before it exits",
			parse: durationIn(10*time.Second, 168*time.Hour)},
		{Key: SettingManagedLock, Default: "", Allowed: "the absolute path of a lockfile",
			Help: "a lockfile enforced on this machine (SPEC N3); VOUCH_MANAGED_LOCK comes first", parse: absolutePath},
		{Key: SettingAllowedSigners, Default: "", Allowed: "the absolute path of an allowed_signers file",
			Help: "whose SSH keys may sign lockfiles and skills; lockfiles then need FILE.sig", parse: absolutePath},
		{Key: SettingRequireSigned, Default: "off", Allowed: "on or off",
			Help: "refuse skill packages no allowed signer signed", parse: onOff},
	}
}

// absolutePath accepts an absolute path, cleaned.
func absolutePath(v string) (string, error) {
	v = strings.TrimSpace(v)
	if !filepath.IsAbs(v) {
		return "", fmt.Errorf("not an absolute path")
	}
	return filepath.Clean(v), nil
}

// onOff accepts on or off.
func onOff(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes":
		return "on", nil
	case "off", "false", "no":
		return "off", nil
	}
	return "", fmt.Errorf("not on or off")
}

// durationIn parses a duration within [lo, hi].
func durationIn(lo, hi time.Duration) func(string) (string, error) {
	return func(v string) (string, error) {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < lo || d > hi {
			return "", fmt.Errorf("not a duration from %s to %s", ShortDuration(lo), ShortDuration(hi))
		}
		return ShortDuration(d), nil
	}
}

// ShortDuration is d without zero units ("5m", not "5m0s").
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// LookupSetting returns the spec of key, or a Usage error that names the
// known keys.
func LookupSetting(key string) (SettingSpec, error) {
	var keys []string
	for _, s := range SettingSpecs() {
		if s.Key == key {
			return s, nil
		}
		keys = append(keys, s.Key)
	}
	return SettingSpec{}, Errorf(Usage, "unknown setting %q; the settings are %s", key, strings.Join(keys, ", "))
}

// Parse validates value for s and returns it as it is stored, or a Usage
// error of one sentence that lists the allowed values.
func (s SettingSpec) Parse(value string) (string, error) {
	v, err := s.parse(value)
	if err != nil {
		return "", Errorf(Usage, "%s cannot be %q; use %s", s.Key, value, s.Allowed)
	}
	return v, nil
}

// SettingValue is a setting as it stands.
type SettingValue struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Default string `json:"default"`
	// IsSet is true when a value is stored (it may equal the default).
	IsSet   bool   `json:"set"`
	Allowed string `json:"allowed"`
	Help    string `json:"help"`
}

// SettingStore is what the registry needs of the database (a
// *store.DB).
type SettingStore interface {
	Setting(key string) (string, bool, error)
	SetSetting(key, value string) error
}

// Settings reads and writes the known settings of one database.
type Settings struct{ db SettingStore }

// NewSettings returns the registry over db.
func NewSettings(db SettingStore) Settings { return Settings{db: db} }

// Settings is the registry over the database.
func (d data) Settings() Settings { return Settings{db: d.db} }

func readSetting(db SettingStore, s SettingSpec) (SettingValue, error) {
	v := SettingValue{Key: s.Key, Value: s.Default, Default: s.Default, Allowed: s.Allowed, Help: s.Help}
	stored, ok, err := db.Setting(s.Key)
	if err != nil {
		return v, fmt.Errorf("read setting %s (check the state directory): %w", s.Key, err)
	}
	if ok && stored != "" {
		if parsed, err := s.parse(stored); err == nil {
			v.Value, v.IsSet = parsed, true
		}
		// A stored value vouch no longer accepts reads as the default.
	}
	return v, nil
}

// Values returns every known setting with its value and default.
func (st Settings) Values() ([]SettingValue, error) {
	var out []SettingValue
	for _, s := range SettingSpecs() {
		v, err := readSetting(st.db, s)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Value returns one setting; an unknown key is a Usage error.
func (st Settings) Value(key string) (SettingValue, error) {
	s, err := LookupSetting(key)
	if err != nil {
		return SettingValue{}, err
	}
	return readSetting(st.db, s)
}

// Set validates and stores value under key and returns the
// setting as it now stands.
func (st Settings) Set(key, value string) (SettingValue, error) {
	s, err := LookupSetting(key)
	if err != nil {
		return SettingValue{}, err
	}
	v, err := s.Parse(value)
	if err != nil {
		return SettingValue{}, err
	}
	if err := guardTrustSetting(st.db, key, v); err != nil { // SPEC N3
		return SettingValue{}, err
	}
	if err := st.db.SetSetting(key, v); err != nil {
		return SettingValue{}, fmt.Errorf("store setting %s (check the state directory): %w", key, err)
	}
	return readSetting(st.db, s)
}

// Reset puts key back to its default.
func (st Settings) Reset(key string) (SettingValue, error) {
	s, err := LookupSetting(key)
	if err != nil {
		return SettingValue{}, err
	}
	if err := guardTrustSetting(st.db, key, s.Default); err != nil { // SPEC N3
		return SettingValue{}, err
	}
	if err := st.db.SetSetting(key, ""); err != nil {
		return SettingValue{}, fmt.Errorf("reset setting %s (check the state directory): %w", key, err)
	}
	return readSetting(st.db, s)
}

// Duration returns a duration setting's value (its default when
// unset or unreadable).
func (st Settings) Duration(key string) (time.Duration, error) {
	v, err := st.Value(key)
	if err != nil {
		return 0, err
	}
	d, perr := time.ParseDuration(v.Value)
	if perr != nil {
		return 0, fmt.Errorf("setting %s holds %q, not a duration; run 'vouch settings reset %s': %w", key, v.Value, key, perr)
	}
	return d, nil
}
