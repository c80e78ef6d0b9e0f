//go:build linux

package store

import "testing"

// keyringTestAsked says why the Secret Service tests must not run, or ""
// when they may (issue 18 item 20). They store a secret in the session's
// keyring and lock and unlock its login collection: on a desktop that is
// the person's own keyring. They run against the throwaway keyring
// .ci/with-keyring starts (it sets VOUCH_TEST_KEYRING_PASSWORD), or when
// the person asks with VOUCH_TEST_KEYRING=1.
func keyringTestAsked(getenv func(string) string) string {
	if getenv("VOUCH_TEST_KEYRING_PASSWORD") != "" || getenv("VOUCH_TEST_KEYRING") == "1" {
		return ""
	}
	return "the Secret Service tests write into this session's keyring, which on a desktop is your login keyring; " +
		"run them under .ci/with-keyring (a throwaway keyring) or set VOUCH_TEST_KEYRING=1"
}

func TestKeyringTestAsked(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  env
		runs bool
	}{
		{"desktop session, not asked", env{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, false},
		{"VOUCH_E2E alone is no consent", env{"VOUCH_E2E": "1"}, false},
		{"throwaway keyring of .ci/with-keyring", env{"VOUCH_TEST_KEYRING_PASSWORD": "ci-keyring-pw"}, true},
		{"asked", env{"VOUCH_TEST_KEYRING": "1"}, true},
		{"asked with another value", env{"VOUCH_TEST_KEYRING": "yes"}, false},
	} {
		if got := keyringTestAsked(tc.env.get) == ""; got != tc.runs {
			t.Errorf("%s: runs = %v, want %v", tc.name, got, tc.runs)
		}
	}
}
