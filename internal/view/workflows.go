package view

import (
	"time"

	"vouch/agent"
	"vouch/tool"
)

// Schedule is one profile's schedule: its next tick, why it is
// paused, and its last tick in a few words.
type Schedule struct {
	Profile string    `json:"profile"`
	Spec    string    `json:"schedule"`
	Task    string    `json:"task"`
	Next    time.Time `json:"next,omitzero"`
	Paused  string    `json:"paused,omitempty"`
	Last    string    `json:"last,omitempty"`
	LastAt  time.Time `json:"last_at,omitzero"`
}

// ProfileSummary is one row of the profile list.
type ProfileSummary struct {
	Name       string
	Definition string
	// Kind is the definition's kind ("" when it cannot be read).
	Kind          string
	Revision      int
	Tools, Skills int
	// Schedule is the schedule in a few words, "" for none.
	Schedule string
	Updated  time.Time
}

// Profile is the latest revision of one profile as the profile editor
// shows it.
type Profile struct {
	Name       string
	Definition string
	Kind       string
	// Model is the model runs use ("" : the one chosen in the chat).
	Model string
	// ContextWindow overrides the model's window when positive.
	ContextWindow int
	// Temperature is nil for the model's default.
	Temperature *float64
	// ToolBudget is the share of the window tool metadata may take (0: the
	// default, SPEC F2).
	ToolBudget float64
	// Workspace is the folder the workspace tools are scoped to ("": the
	// folder vouch was started in).
	Workspace string
	// Skills are the enabled skills' names, in prompt order.
	Skills []string
	// PolicySkills are the enabled local skills the profile treats as
	// policy: they outrank server skills, which only document (SPEC I6).
	PolicySkills []string
	// Tools is the allowlist, as tool identities; shown, never edited by
	// the editor.
	Tools []string
	// Schedule is nil without one.
	Schedule *ProfileSchedule
	Revision int
	Updated  time.Time
}

// ProfileInput is what the profile editor saves: every field of a
// profile but its tool allowlist, which saving keeps as it is (a new
// profile starts with none).
type ProfileInput struct {
	// Create marks a new profile; saving fails if the name is taken.
	Create        bool
	Name          string
	Definition    string
	Model         string
	ContextWindow int
	Temperature   *float64
	ToolBudget    float64
	Workspace     string
	// Skills are enabled skill names in prompt order (SPEC H4).
	Skills []string
	// PolicySkills are enabled local skills marked as policy (SPEC I6); a
	// server skill is never one.
	PolicySkills []string
	Schedule     *ProfileSchedule
}

// ProfileSchedule is a profile's optional schedule: exactly one of Every
// (a duration such as "30m" or "1h") and Cron (five fields), and the task
// it runs.
type ProfileSchedule struct {
	Every string
	Cron  string
	Task  string
}

// DefinitionChoice is one definition a profile may use.
type DefinitionChoice struct {
	Name           string
	Kind           string
	Revision       int
	Description    string
	EditedByPerson bool
}

// InboxItem is one call of a background run waiting for the person.
type InboxItem struct {
	RunID string
	// Profile is the run's profile; Kind is "scheduled" or "profile".
	Profile string
	Kind    string
	Task    string
	// Requested is when the call began to wait; Deadline when the run stops
	// waiting for it (zero: no deadline).
	Requested time.Time
	Deadline  time.Time
	Call      agent.ToolCall
	Tool      tool.Def
	// Reason, Effect and Preview are as in agent.ApprovalRequested.
	Reason  string
	Effect  string
	Preview string
	// Definition is the digest of the tool definition the call was decided
	// on (agent.ApprovalRequested.Definition): classifying from the inbox
	// pins it, as from a chat call's pane (SPEC D8).
	Definition string
	// Question, when set, makes the item a server's question (kind
	// "input", SPEC B12) asked during one of the run's tool calls, rather
	// than a call waiting for approval: Call then carries only its
	// correlation ID, and the answer goes back as a tool.Answer.
	Question *tool.Question
}

// SkillChoice is one skill of the profile editor's skill picker.
type SkillChoice struct {
	Name        string
	Version     string
	Description string
	Enabled     bool
	// Origin is "" for a local skill, "from <server label>" (with its
	// state when not approved) for a skill an MCP server serves (SPEC I1).
	Origin string
	// Policy marks an enabled local skill the profile treats as policy
	// (SPEC I6).
	Policy bool
}
