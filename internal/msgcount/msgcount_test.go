package msgcount

import "testing"

func TestCounts(t *testing.T) {
	for _, tc := range []struct {
		role, text string
		want       bool
	}{
		{"user", "hello", true},
		{"assistant", "Hello!", true},
		{"assistant", "", false},      // a turn that only called tools
		{"assistant", " \n\t", false}, // nothing said
		{"tool", "README.md", false},
		{"system", "You are…", false},
	} {
		if got := Counts(tc.role, tc.text); got != tc.want {
			t.Errorf("Counts(%q, %q) = %v, want %v", tc.role, tc.text, got, tc.want)
		}
	}
}

func TestOf(t *testing.T) {
	if Of("assistant", "Hi") != 1 || Of("assistant", "") != 0 || Of("tool", "x") != 0 || Of("user", "x") != 1 {
		t.Errorf("Of: %d %d %d %d, want 1 0 0 1", Of("assistant", "Hi"), Of("assistant", ""), Of("tool", "x"), Of("user", "x"))
	}
}
