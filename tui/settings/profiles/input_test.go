package profiles

import (
	"strings"
	"testing"
)

// TestProfileEditorTaskNeedsSchedule: a task without a schedule, and a
// schedule without a task, are refused; nothing typed is dropped.
func TestProfileEditorTaskNeedsSchedule(t *testing.T) {
	for _, tc := range []struct{ schedule, task, want string }{
		{"", "Summarise.", "A task runs only on a schedule"},
		{"every 1h", "", "A schedule needs a task"},
	} {
		_, err := parseProfileForm(profileForm{name: "p", definition: "d", schedule: tc.schedule, task: tc.task})
		fe, ok := asFieldError(err)
		if !ok || fe.field != FieldTask || !strings.HasPrefix(fe.msg, tc.want) {
			t.Errorf("schedule %q task %q: error %v, want %q on the task", tc.schedule, tc.task, err, tc.want)
		}
	}
}
