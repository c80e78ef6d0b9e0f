package profiles

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/settings/tools"
)

// The Cmds of the Profiles page and the panes it opens (SPEC H2, L2). Each
// captures copies of its inputs, calls the Backend inside the closure with
// a bounded context and returns a typed message; none reads or writes a
// model (STYLE habits 5 and 6).

// ListedMsg carries ListProfiles for load seq.
type ListedMsg struct {
	seq      int
	profiles []Summary
	err      error
}

// RemovedMsg carries RemoveProfile.
type RemovedMsg struct {
	name string
	err  error
}

// FormMsg carries what the profile editor needs: the profile (when
// editing one), the definitions and the installed skills.
type FormMsg struct {
	name    string
	profile Profile
	defs    []DefinitionChoice
	skills  []SkillChoice
	err     error
}

// SavedMsg carries SaveProfile.
type SavedMsg struct {
	view Profile
	err  error
}

// Where the tools page's results belong: the conversation, or a profile.
func profileScope(name string) string { return "profile:" + name }

func listProfiles(p Backend, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		ps, err := p.ListProfiles(ctx)
		if err != nil {
			err = fmt.Errorf("could not list the profiles: %w", err)
		}
		return ListedMsg{seq: seq, profiles: ps, err: err}
	}
}

func removeProfile(p Backend, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := p.RemoveProfile(ctx, name)
		if err != nil {
			err = fmt.Errorf("could not remove the profile: %w", err)
		}
		return RemovedMsg{name: name, err: err}
	}
}

// loadProfileForm asks for the profile name ("" : a new one), the
// definitions and the skills the editor offers.
func loadProfileForm(p Backend, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		msg := FormMsg{name: name}
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
func saveProfile(p Backend, in Input) tea.Cmd {
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
		return SavedMsg{view: v, err: err}
	}
}

// loadProfileTools is loadTools for a profile's allowlist.
func loadProfileTools(p Backend, name string, seq int) tea.Cmd {
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
func setProfileTool(p Backend, name, identity string, on bool) tea.Cmd {
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
