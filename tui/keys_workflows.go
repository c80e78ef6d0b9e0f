package tui

import (
	"vouch/tui/approval"

	"vouch/tui/settings/profiles"
	"vouch/tui/settings/runs"
	"vouch/tui/settings/workflows"
)

// WorkflowKeyMaps is the bindings of the Agent Workflows panes (SPEC H,
// L2): the Workflows and Profiles pages of Settings, the profile editor,
// the run history and the approvals inbox. The per-profile tool selection
// pane uses the Tools page's bindings.
type WorkflowKeyMaps struct {
	Switch   workflows.KeyMap
	Profiles profiles.ListKeyMap
	RunNow   profiles.RunKeyMap
	Editor   profiles.EditorKeyMap
	Runs     runs.KeyMap
	Run      runs.DetailKeyMap
	Inbox    approval.InboxKeyMap
}

// DefaultWorkflowKeyMaps returns the default bindings of every Agent
// Workflows pane.
func DefaultWorkflowKeyMaps() WorkflowKeyMaps {
	return WorkflowKeyMaps{
		Switch:   workflows.DefaultKeyMap(),
		Profiles: profiles.DefaultListKeyMap(),
		RunNow:   profiles.DefaultRunKeyMap(),
		Editor:   profiles.DefaultEditorKeyMap(),
		Runs:     runs.DefaultKeyMap(),
		Run:      runs.DefaultDetailKeyMap(),
		Inbox:    approval.DefaultInboxKeyMap(),
	}
}
