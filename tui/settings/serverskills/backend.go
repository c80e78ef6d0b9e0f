package serverskills

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// Backend is the optional capability of a Servers backend for skills
// that MCP servers serve (SPEC I1-I6): the MCP Servers page offers its
// skills key only when the backend has it. Like Servers, every method may
// block on I/O and is called only from inside a tea.Cmd. Listing is lazy:
// nothing is listed until the person opens a server's skills, and no method
// but the approval actions writes anything. Every string in the views is
// server-supplied unless it says otherwise and is neutralised again when
// drawn.
type Backend interface {
	// ListServerSkills sends skills/list to one server and returns its
	// skills with their states; it reads no skill file. A failed or
	// partial listing returns what arrived with the listing's problem.
	ListServerSkills(ctx context.Context, serverID string) (Listing, error)
	// PreviewServerSkill prepares the approval preview of one skill from
	// its current entry (skills/get); it reads no skill file.
	PreviewServerSkill(ctx context.Context, serverID, uri string) (Preview, error)
	// ApproveServerSkill approves exactly the resource set setDigest the
	// preview showed; a set that changed since is refused. accept are the
	// IDs of the high-severity findings the person accepted in the second
	// confirmation (Preview.MustAccept; SPEC G8, I5), nil when none.
	ApproveServerSkill(ctx context.Context, serverID, uri, setDigest string, accept []string) (Skill, error)
	// KeepServerSkill keeps the pinned version after a change.
	KeepServerSkill(ctx context.Context, serverID, uri string) (Skill, error)
	// RollbackServerSkill makes approval n (from 1) the one in effect,
	// served from its pinned files.
	RollbackServerSkill(ctx context.Context, serverID, uri string, n int) (Skill, error)
}

// State is where a server skill stands with the person.
type State string

// The states of docs/server-skills.md.
const (
	StateUnapproved State = "unapproved"
	StateApproved   State = "approved"
	StateReview     State = "review"
	StateChanged    State = "changed"
	StatePinned     State = "pinned"
	StateDynamic    State = "dynamic"
)

// Skill is one skill of one server.
type Skill struct {
	// URI is the skill's SKILL.md URI: with the server, its identity.
	URI string
	// Name is its per-origin name, "<server label>/<name>".
	Name        string
	Description string
	State       State
	// Sentence is vouch's sentence about the state and what to do.
	Sentence string
	Files    int
	// Listed is false for a skill known from an approval that the current
	// listing does not carry.
	Listed bool
	// Approval is the approval in effect (0: none).
	Approval int
}

// Listing is one server's skills as the pane shows them.
type Listing struct {
	Skills []Skill
	// Summary is vouch's sentence about the listing; it never says "no
	// skills" of an empty or partial listing.
	Summary string
	// Invalid are entries not used, "uri: reason".
	Invalid []string
}

// Preview is the approval preview of one server skill (SPEC I3,
// I5, I6).
type Preview struct {
	Skill Skill
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
	// MustAccept are the IDs of the high-severity scanner findings not yet
	// reviewed: approving needs a second confirmation that names them,
	// and passes them as accepted (SPEC G8, I5). Empty: nothing to accept.
	MustAccept []string
}

// ListedMsg carries one listing.
type ListedMsg struct {
	seq     int
	listing Listing
	err     error
}

// PreviewMsg carries one preview.
type PreviewMsg struct {
	seq     int
	preview Preview
	err     error
}

// ActedMsg is the result of approve, keep or rollback.
type ActedMsg struct {
	seq  int
	verb string
	view Skill
	err  error
}

func listServerSkills(ss Backend, serverID string, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		l, err := ss.ListServerSkills(ctx, serverID)
		return ListedMsg{seq: seq, listing: l, err: err}
	}
}

func previewServerSkill(ss Backend, serverID, uri string, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		p, err := ss.PreviewServerSkill(ctx, serverID, uri)
		return PreviewMsg{seq: seq, preview: p, err: err}
	}
}

// actOnServerSkill runs one approval action: "approve" (with the accepted
// finding IDs), "keep" or "rollback" (to approval n).
func actOnServerSkill(ss Backend, verb, serverID, uri, setDigest string, accept []string, n, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		var v Skill
		var err error
		switch verb {
		case "keep":
			v, err = ss.KeepServerSkill(ctx, serverID, uri)
		case "rollback":
			v, err = ss.RollbackServerSkill(ctx, serverID, uri, n)
		default:
			v, err = ss.ApproveServerSkill(ctx, serverID, uri, setDigest, accept)
		}
		return ActedMsg{seq: seq, verb: verb, view: v, err: err}
	}
}
