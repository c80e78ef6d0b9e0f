package tuiwire

import "vouch/internal/app"

// Inbox is the interface's approvals inbox: the session's plain detached
// runs (`vouch run --detach` without a profile) queue the calls that need
// approval in it, next to the scheduler's (SPEC K4, H6).
func (i *Interface) Inbox() *app.Inbox { return i.Backend.inbox }
