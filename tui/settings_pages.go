package tui

import "vouch/tui/settings"

// newSettings returns Settings › Tools & Workflows on its first page, MCP
// Servers, backed by s (nil: the pages say servers are not available); the
// Policy page is backed by pe (nil: it says policy is not available), the
// Skills page by sc (nil: it says skills are not available).
func newSettings(c Common, s Servers, pe PolicyEditor, sc SkillCatalog) settings.Model {
	return settings.New(c.Common, c.Keys.Settings, "Tools & Workflows",
		newServerList(c, s), newToolsPage(c, s), newPolicyPage(c, pe), newSkillsPage(c, sc))
}
