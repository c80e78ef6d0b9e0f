package tui

import (
	"vouch/policy"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
	"vouch/tui/settings"
	"vouch/tui/settings/notifications"
	tuipolicy "vouch/tui/settings/policy"
	"vouch/tui/settings/profiles"
	"vouch/tui/settings/servers"
	"vouch/tui/settings/serverskills"
	"vouch/tui/settings/skills"
	"vouch/tui/settings/tools"
)

// Servers is what Settings › Tools & Workflows asks of the MCP servers:
// the MCP Servers page's backend and the Tools page's catalog. A Servers
// that also implements serverskills.Backend lists an active server's skills.
type Servers interface {
	servers.Backend
	tools.Catalog
}

// newSettings returns Settings › Tools & Workflows on its first page, MCP
// Servers, backed by s (nil: the pages say servers are not available); the
// Policy page is backed by pe (nil: it says policy is not available), the
// Skills page by sc (nil: it says skills are not available).
func newSettings(c Common, s Servers, pe tuipolicy.Editor, sc skills.Catalog) settings.Model {
	k := c.Keys
	var serverSkills func(settings.ServerView) kit.Modal
	if ss, ok := s.(serverskills.Backend); ok {
		keys := serverskills.KeyMap{List: k.ServerSkills, Approval: k.SkillApproval}
		serverSkills = func(v settings.ServerView) kit.Modal { return serverskills.New(c.Common, keys, ss, v) }
	}
	serverKeys := servers.KeyMap{List: k.Servers, Editor: k.Editor, Report: k.Report, Confirm: k.Confirm}
	return settings.New(c.Common, k.Settings, "Tools & Workflows",
		servers.New(c.Common, serverKeys, s, serverSkills),
		tools.New(c.Common, k.Tools, tools.Conversation(s)),
		tuipolicy.New(c.Common, k.Policy, k.Confirm, pe, editRule(c, pe)),
		skills.New(c.Common, k.Skills, k.Confirm, sc))
}

// skillCatalog returns the Backend as a skills.Catalog, or nil when it
// does not implement the interface.
func (m Model) skillCatalog() skills.Catalog {
	if sc, ok := m.backend.(skills.Catalog); ok {
		return sc
	}
	return nil
}

// profileKeys is the Profiles page's bindings: its own and the panes it
// opens, the Tools page's for the tool selection, the confirmation's, and
// the chat's inbox and run-history keys that it names.
func (m Model) profileKeys() profiles.KeyMap {
	k := m.common.Keys
	return profiles.KeyMap{List: k.Workflow.Profiles, RunNow: k.Workflow.RunNow, Editor: k.Workflow.Editor,
		Tools: k.Tools, Confirm: k.Confirm, Inbox: k.Chat.Inbox, Runs: k.Chat.Runs}
}

// policyEditor returns the Backend as a tuipolicy.Editor, or nil when it
// does not implement the interface.
func (m Model) policyEditor() tuipolicy.Editor {
	if pe, ok := m.backend.(tuipolicy.Editor); ok {
		return pe
	}
	return nil
}

// editRule opens the rule editor on a stored rule, saving through pe (nil:
// no rule can be edited).
func editRule(c Common, pe tuipolicy.Editor) func(policy.Rule) kit.Modal {
	if pe == nil {
		return nil
	}
	return func(r policy.Rule) kit.Modal { return ruleedit.New(c.Common, c.Keys.Rule, pe, ruleedit.FromRule(r), 0) }
}

// notifyPages is Settings › Tools & Workflows › Notify (SPEC L4), when the
// interface has a Notifier; it is backed by the Notifier when that is a
// notifications.Backend (else the page says it is not available).
func (m Model) notifyPages() []settings.Page {
	if m.opts.Notifier == nil {
		return nil
	}
	nb, _ := m.opts.Notifier.(notifications.Backend)
	return []settings.Page{notifications.New(m.common.Common, notifications.DefaultKeyMap(), nb)}
}
