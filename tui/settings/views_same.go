package settings

import "time"

// SameServers reports whether a and b show the same servers, in the same
// order and state: what the MCP Servers page compares to tell that the
// servers changed while it was shown (SPEC B5).
func SameServers(a, b []ServerView) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !x.FetchedAt.Equal(y.FetchedAt) {
			return false
		}
		x.FetchedAt, y.FetchedAt = time.Time{}, time.Time{}
		if x != y {
			return false
		}
	}
	return true
}
