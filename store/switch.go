package store

import "fmt"

// settingWorkflows is the settings key of the Agent Workflows switch.
const settingWorkflows = "agent_workflows"

// WorkflowsEnabled reports the Agent Workflows switch (SPEC H1): one
// setting per device (per database) that governs profiles, schedules, MCP
// servers and skills together. It is on until someone turns it off.
func (db *DB) WorkflowsEnabled() (bool, error) {
	v, ok, err := db.Setting(settingWorkflows)
	if err != nil {
		return false, fmt.Errorf("read the Agent Workflows switch: %w", err)
	}
	return !ok || v != "off", nil
}

// SetWorkflowsEnabled turns the switch on or off. Turning it off deletes
// nothing; turning it on restores everything as it was.
func (db *DB) SetWorkflowsEnabled(on bool) error {
	v := "off"
	if on {
		v = "on"
	}
	return db.SetSetting(settingWorkflows, v)
}
