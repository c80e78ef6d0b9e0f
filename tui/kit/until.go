package kit

import (
	"fmt"
	"time"
)

// Until says how long after now t is, compactly: "in 5m", "in 3h", "in
// 2d"; "not planned" for the zero time, "due" when it has passed.
func Until(now, t time.Time) string {
	if t.IsZero() {
		return "not planned"
	}
	d := t.Sub(now)
	switch {
	case d <= 0:
		return "due"
	case d < time.Hour:
		return fmt.Sprintf("in %dm", max(int(d/time.Minute), 1))
	case d < 48*time.Hour:
		return fmt.Sprintf("in %dh", int(d/time.Hour))
	default:
		return fmt.Sprintf("in %dd", int(d/(24*time.Hour)))
	}
}
