package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// ServerSkills is the optional capability of a Servers backend for skills
// that MCP servers serve (SPEC I1-I6): the MCP Servers page offers its
// skills key only when the backend has it. Like Servers, every method may
// block on I/O and is called only from inside a tea.Cmd. Listing is lazy:
// nothing is listed until the person opens a server's skills, and no method
// but the approval actions writes anything. Every string in the views is
// server-supplied unless it says otherwise and is neutralised again when
// drawn.
type ServerSkills interface {
	// ListServerSkills sends skills/list to one server and returns its
	// skills with their states; it reads no skill file. A failed or
	// partial listing returns what arrived with the listing's problem.
	ListServerSkills(ctx context.Context, serverID string) (ServerSkillListing, error)
	// PreviewServerSkill prepares the approval preview of one skill from
	// its current entry (skills/get); it reads no skill file.
	PreviewServerSkill(ctx context.Context, serverID, uri string) (ServerSkillPreview, error)
	// ApproveServerSkill approves exactly the resource set setDigest the
	// preview showed; a set that changed since is refused.
	ApproveServerSkill(ctx context.Context, serverID, uri, setDigest string) (ServerSkillView, error)
	// KeepServerSkill keeps the pinned version after a change.
	KeepServerSkill(ctx context.Context, serverID, uri string) (ServerSkillView, error)
	// RollbackServerSkill makes approval n (from 1) the one in effect,
	// served from its pinned files.
	RollbackServerSkill(ctx context.Context, serverID, uri string, n int) (ServerSkillView, error)
}

// ServerSkillState is where a server skill stands with the person.
type ServerSkillState string

// The states of docs/server-skills.md.
const (
	SkillStateUnapproved ServerSkillState = "unapproved"
	SkillStateApproved   ServerSkillState = "approved"
	SkillStateReview     ServerSkillState = "review"
	SkillStateChanged    ServerSkillState = "changed"
	SkillStatePinned     ServerSkillState = "pinned"
	SkillStateDynamic    ServerSkillState = "dynamic"
)

// ServerSkillView is one skill of one server.
type ServerSkillView struct {
	// URI is the skill's SKILL.md URI: with the server, its identity.
	URI string
	// Name is its per-origin name, "<server label>/<name>".
	Name        string
	Description string
	State       ServerSkillState
	// Sentence is vouch's sentence about the state and what to do.
	Sentence string
	Files    int
	// Listed is false for a skill known from an approval that the current
	// listing does not carry.
	Listed bool
	// Approval is the approval in effect (0: none).
	Approval int
}

// ServerSkillListing is one server's skills as the pane shows them.
type ServerSkillListing struct {
	Skills []ServerSkillView
	// Summary is vouch's sentence about the listing; it never says "no
	// skills" of an empty or partial listing.
	Summary string
	// Invalid are entries not used, "uri: reason".
	Invalid []string
}

// ServerSkillPreview is the approval preview of one server skill (SPEC I3,
// I5, I6).
type ServerSkillPreview struct {
	Skill ServerSkillView
	// Lines is the preview as vouch renders it for terminals: origin, the
	// entry's words, every file with size and digest, the set digest, what
	// changed since approval, the allowed-tools request (grants nothing),
	// scanner findings and the approval history.
	Lines []string
	// SetDigest is the resource set shown; approve takes it back. "" for a
	// dynamic skill, which cannot be approved.
	SetDigest string
	// Approvals numbers the approvals on record, oldest first.
	Approvals []int
	// Precedence is vouch's lines on where the skill stands in the
	// profiles that enable it (SPEC I6).
	Precedence []string
}

// serverSkillsMsg carries one listing.
type serverSkillsMsg struct {
	seq     int
	listing ServerSkillListing
	err     error
}

// serverSkillPreviewMsg carries one preview.
type serverSkillPreviewMsg struct {
	seq     int
	preview ServerSkillPreview
	err     error
}

// serverSkillActedMsg is the result of approve, keep or rollback.
type serverSkillActedMsg struct {
	seq  int
	verb string
	view ServerSkillView
	err  error
}

func listServerSkills(ss ServerSkills, serverID string, seq int) tea.Cmd {
	return func() tea.Msg {
		l, err := ss.ListServerSkills(context.Background(), serverID)
		return serverSkillsMsg{seq: seq, listing: l, err: err}
	}
}

func previewServerSkill(ss ServerSkills, serverID, uri string, seq int) tea.Cmd {
	return func() tea.Msg {
		p, err := ss.PreviewServerSkill(context.Background(), serverID, uri)
		return serverSkillPreviewMsg{seq: seq, preview: p, err: err}
	}
}

// actOnServerSkill runs one approval action: "approve", "keep" or
// "rollback" (to approval n).
func actOnServerSkill(ss ServerSkills, verb, serverID, uri, setDigest string, n, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		var v ServerSkillView
		var err error
		switch verb {
		case "keep":
			v, err = ss.KeepServerSkill(ctx, serverID, uri)
		case "rollback":
			v, err = ss.RollbackServerSkill(ctx, serverID, uri, n)
		default:
			v, err = ss.ApproveServerSkill(ctx, serverID, uri, setDigest)
		}
		return serverSkillActedMsg{seq: seq, verb: verb, view: v, err: err}
	}
}
