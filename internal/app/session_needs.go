package app

import (
	"fmt"

	"vouch/store"
)

// inFlightScan is how many of the newest runs SessionNeeds looks at for
// runs still going: a run in flight is among the newest.
const inFlightScan = 200

// SessionNeeds is what keeps a session process alive (SPEC K4): runs in
// flight, and whether schedules may fire (the Workflows switch on with at
// least one scheduled profile, SPEC H6). Background counts the runs in
// flight that are not the interface's chat (`vouch run --detach`,
// profile and scheduled runs): those the session keeps after the person
// quits the interface.
type SessionNeeds struct {
	Running    int
	Background int
	Schedules  bool
}

// SessionNeeds reads what this session still has to do. A run the
// process started and not yet finished is recorded as running (runs left
// running by a process that died are marked failed at Open, K3).
func (a *App) SessionNeeds() (SessionNeeds, error) {
	var n SessionNeeds
	runs, _, err := a.db.Runs("", inFlightScan)
	if err != nil {
		return n, fmt.Errorf("read the runs in flight: %w", err)
	}
	for _, r := range runs {
		if r.Outcome == store.RunRunning {
			n.Running++
			if r.Kind != store.RunChat {
				n.Background++
			}
		}
	}
	if !a.WorkflowsOn() {
		return n, nil
	}
	profiles, err := a.db.Profiles()
	if err != nil {
		return n, fmt.Errorf("read the schedules: %w", err)
	}
	for _, p := range profiles {
		if p.Schedule != nil {
			n.Schedules = true
			break
		}
	}
	return n, nil
}

// SettingSessionIdle is how long a session process with no client and
// nothing to do waits before it exits (SPEC K4): a duration, "5m" by
// default (the registry in settings.go holds its spec).
const SettingSessionIdle = sessionIdleKey
