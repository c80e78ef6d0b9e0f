package notify

import (
	"fmt"
	"strings"
)

// Level is how much vouch notifies: the `notify` setting.
type Level string

// The levels.
const (
	LevelOff       Level = "off"       // nothing
	LevelBell      Level = "bell"      // the bell, for approvals only
	LevelApprovals Level = "approvals" // a notification for approvals only (the default)
	LevelAll       Level = "all"       // approvals, background runs ended, long turns
)

// DefaultLevel is the level while none is set.
const DefaultLevel = LevelApprovals

// ParseLevel reads a notify value.
func ParseLevel(s string) (Level, error) {
	switch l := Level(strings.ToLower(strings.TrimSpace(s))); l {
	case LevelOff, LevelBell, LevelApprovals, LevelAll:
		return l, nil
	}
	return DefaultLevel, fmt.Errorf("unknown notification level %q; use off, bell, approvals or all", s)
}

// Event is what a notification is about.
type Event int

// The events.
const (
	EventApproval Event = iota // a call waits for the person's approval
	EventRunEnded              // a background run finished or failed
	EventLongTurn              // a turn longer than the long-turn threshold completed
)

// Allows reports whether l notifies about e.
func (l Level) Allows(e Event) bool {
	switch l {
	case LevelBell, LevelApprovals:
		return e == EventApproval
	case LevelAll:
		return true
	}
	return false
}

// Note is one notification: what it is about, a short title and a body.
// Both texts may hold untrusted text; the Terminal cleans them.
type Note struct {
	Event Event
	Title string
	Body  string
}
