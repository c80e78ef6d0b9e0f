package tui

import (
	"vouch/tui/approval"
	"vouch/tui/chat"
	"vouch/tui/convlist"
	"vouch/tui/kit"
	"vouch/tui/picker"
	"vouch/tui/ruleedit"
	"vouch/tui/settings"
	tuipolicy "vouch/tui/settings/policy"
	"vouch/tui/settings/servers"
	"vouch/tui/settings/serverskills"
	"vouch/tui/settings/skills"
	"vouch/tui/settings/tools"
)

// KeyMap is every binding of the interface, grouped by the pane or modal
// that owns them. It travels in Common; each component copies its group at
// construction and enables or disables bindings there by state, so the
// shared KeyMap itself never changes.
type KeyMap struct {
	Chat     chat.KeyMap
	Picker   picker.KeyMap
	Settings settings.KeyMap
	Servers  servers.ListKeyMap
	Editor   servers.EditorKeyMap
	Report   servers.ReportKeyMap
	Tools    tools.KeyMap
	Confirm  kit.ConfirmKeyMap
	Approval approval.KeyMap
	Elicit   approval.ElicitKeyMap // a server asks the person (SPEC B12)
	Rule     ruleedit.KeyMap
	Policy   tuipolicy.KeyMap
	Workflow WorkflowKeyMaps
	Skills   skills.KeyMap
	// ServerSkills and SkillApproval: a server's skills and the approval
	// preview of one (SPEC I1-I6).
	ServerSkills  serverskills.ListKeyMap
	SkillApproval serverskills.ApprovalKeyMap
	// ConvList is the conversation list's (SPEC L5).
	ConvList convlist.KeyMap
}

// DefaultKeyMap returns the default bindings of every pane and modal.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Chat:     chat.DefaultKeyMap(),
		Picker:   picker.DefaultKeyMap(),
		Settings: settings.DefaultKeyMap(),
		Servers:  servers.DefaultListKeyMap(),
		Editor:   servers.DefaultEditorKeyMap(),
		Report:   servers.DefaultReportKeyMap(),
		Tools:    tools.DefaultKeyMap(),
		Confirm:  kit.DefaultConfirmKeyMap(),
		Approval: approval.DefaultKeyMap(),
		Elicit:   approval.DefaultElicitKeyMap(),
		Rule:     ruleedit.DefaultKeyMap(),
		Policy:   tuipolicy.DefaultKeyMap(),
		Workflow: DefaultWorkflowKeyMaps(),
		Skills:   skills.DefaultKeyMap(),

		ServerSkills:  serverskills.DefaultListKeyMap(),
		SkillApproval: serverskills.DefaultApprovalKeyMap(),
		ConvList:      convlist.DefaultKeyMap(),
	}
}
