package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/kit"
	"vouch/tui/settings/tools"
)

// The Cmds of the Agent Workflows panes (SPEC H, L2). Like cmds.go, each
// captures copies of its inputs, calls the capability inside the closure
// with a bounded context and returns a typed message; none reads or writes
// a model (STYLE habits 5 and 6).

// profilesMsg carries ListProfiles for load seq.
type profilesMsg struct {
	seq      int
	profiles []ProfileSummary
	err      error
}

// profileRemovedMsg carries RemoveProfile.
type profileRemovedMsg struct {
	name string
	err  error
}

// profileFormMsg carries what the profile editor needs: the profile (when
// editing one), the definitions and the installed skills.
type profileFormMsg struct {
	name    string
	profile ProfileView
	defs    []DefinitionChoice
	skills  []SkillChoice
	err     error
}

// profileSavedMsg carries SaveProfile.
type profileSavedMsg struct {
	view ProfileView
	err  error
}

// inboxMsg carries PendingApprovals for load seq.
type inboxMsg struct {
	seq   int
	items []InboxItem
	err   error
}

// inboxAnsweredMsg carries AnswerApproval.
type inboxAnsweredMsg struct {
	runID, correlation string
	allow              bool
	err                error
}

// inboxCountMsg is the number of calls waiting in the inbox; closed says
// the channel of counts was closed and is not watched any more.
type inboxCountMsg struct {
	count  int
	closed bool
	err    error
}

// Where the tools page's results belong: the conversation, or a profile.
func profileScope(name string) string { return "profile:" + name }

func listProfiles(p Profiles, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		ps, err := p.ListProfiles(ctx)
		if err != nil {
			err = fmt.Errorf("could not list the profiles: %w", err)
		}
		return profilesMsg{seq: seq, profiles: ps, err: err}
	}
}

func removeProfile(p Profiles, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := p.RemoveProfile(ctx, name)
		if err != nil {
			err = fmt.Errorf("could not remove the profile: %w", err)
		}
		return profileRemovedMsg{name: name, err: err}
	}
}

// loadProfileForm asks for the profile name ("" : a new one), the
// definitions and the skills the editor offers.
func loadProfileForm(p Profiles, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		msg := profileFormMsg{name: name}
		if name != "" {
			v, err := p.Profile(ctx, name)
			if err != nil {
				msg.err = fmt.Errorf("could not read the profile: %w", err)
				return msg
			}
			msg.profile = v
		}
		defs, err := p.Definitions(ctx)
		if err != nil {
			msg.err = fmt.Errorf("could not list the definitions: %w", err)
			return msg
		}
		skills, err := p.SkillsForProfile(ctx, name)
		if err != nil {
			msg.err = fmt.Errorf("could not list the installed skills: %w", err)
			return msg
		}
		msg.defs, msg.skills = defs, skills
		return msg
	}
}

// saveProfile saves in; the slices are copied so the Cmd owns them.
func saveProfile(p Profiles, in ProfileInput) tea.Cmd {
	in.Skills = append([]string(nil), in.Skills...)
	if in.Temperature != nil {
		t := *in.Temperature
		in.Temperature = &t
	}
	if in.Schedule != nil {
		s := *in.Schedule
		in.Schedule = &s
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		v, err := p.SaveProfile(ctx, in)
		if err != nil {
			err = fmt.Errorf("could not save the profile: %w", err)
		}
		return profileSavedMsg{view: v, err: err}
	}
}

// loadProfileTools is loadTools for a profile's allowlist.
func loadProfileTools(p Profiles, name string, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		sel, err := p.ProfileTools(ctx, name)
		if err != nil {
			return tools.ListedMsg{Scope: profileScope(name), Seq: seq, Err: fmt.Errorf("could not list the profile's tools: %w", err)}
		}
		return tools.ListedMsg{Scope: profileScope(name), Seq: seq, Tools: sel.Tools, Servers: sel.Servers}
	}
}

// setProfileTool is setToolEnabled for a profile's allowlist.
func setProfileTool(p Profiles, name, identity string, on bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := p.SetProfileTool(ctx, name, identity, on)
		if err != nil {
			verb := "select"
			if !on {
				verb = "deselect"
			}
			err = fmt.Errorf("could not %s the tool: %w", verb, err)
		}
		return tools.ToggledMsg{Scope: profileScope(name), Identity: identity, Enabled: on, Err: err}
	}
}

func loadInbox(ib Inbox, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		items, err := ib.PendingApprovals(ctx)
		if err != nil {
			err = fmt.Errorf("could not list the calls waiting for approval: %w", err)
		}
		return inboxMsg{seq: seq, items: items, err: err}
	}
}

// answerInbox sends the person's decision to the background run that waits.
func answerInbox(ib Inbox, runID, correlation string, d agent.Decision) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := ib.AnswerApproval(ctx, runID, correlation, d)
		if err != nil {
			err = fmt.Errorf("the answer did not reach the run: %w", err)
		}
		return inboxAnsweredMsg{runID: runID, correlation: correlation, allow: d.Allow, err: err}
	}
}

// countInbox reads the number of waiting calls once, at start.
func countInbox(ib Inbox) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		items, err := ib.PendingApprovals(ctx)
		if err != nil {
			return inboxCountMsg{err: fmt.Errorf("could not count the calls waiting for approval: %w", err)}
		}
		return inboxCountMsg{count: len(items)}
	}
}

// watchInbox waits for the next count on ch; the root re-arms it after
// each one, like the stream reader (STYLE habit 7: counts are snapshots,
// so only the latest matters).
func watchInbox(ch <-chan int) tea.Cmd {
	return func() tea.Msg {
		n, ok := <-ch
		if !ok {
			return inboxCountMsg{closed: true}
		}
		return inboxCountMsg{count: n}
	}
}
