// Package docs owns vouch's reference pages — the Markdown files of this
// folder that the README links — and their topic names: `vouch help TOPIC`
// prints a page byte for byte as the file holds it, so the page on disk and
// the page on the terminal cannot drift (issue 28 item 23). A topic's name
// is never a command's: `vouch help COMMAND` prints the command's usage.
// It imports nothing of the module.
package docs

import (
	"embed"
	"fmt"
	"slices"
)

//go:embed keys.md approvals.md mcp.md skills.md server-skills.md skill-format.md profiles.md ssh.md FLEET.md commands.md models.md
var pages embed.FS

// Topic is one reference page: the name `vouch help` takes, the page's file
// in this folder (the README links docs/File), what it covers, and the
// commands it is the reference of (their usage names the topic).
type Topic struct {
	Name, File, Summary string
	Commands            []string
}

// Topics are the reference pages in the order `vouch help` lists them.
func Topics() []Topic {
	return []Topic{
		{"commands", "commands.md", "every command and flag, and the exit codes", []string{"demo", "conversations", "version", "help"}},
		{"keys", "keys.md", "every key of the terminal interface", nil},
		{"models", "models.md", "the context window, counting tokens, small models and the tool budget", []string{"doctor", "tools"}},
		{"approvals", "approvals.md", "policy rules, the approval pane, --approve-tty", []string{"policy", "run"}},
		{"mcp", "mcp.md", "MCP servers: adding, activating, questions from servers, MCP Apps", []string{"server"}},
		{"skills", "skills.md", "Agent Skills packages: preview, install, findings", []string{"skill"}},
		{"server-skills", "server-skills.md", "skills an MCP server serves, and their content-bound approval", nil},
		{"skill-format", "skill-format.md", "what vouch reads of a skill package", nil},
		{"profiles", "profiles.md", "agent definitions, profiles, schedules, run history", []string{"profile", "definition", "runs", "workflows"}},
		{"ssh", "ssh.md", "over SSH and in tmux: sessions, viewers, notifications", []string{"attach", "sessions", "settings"}},
		{"fleet", "FLEET.md", "fleet trust: lockfiles and SSH signatures", []string{"lock"}},
	}
}

// Lookup is the topic named name, and whether there is one.
func Lookup(name string) (Topic, bool) {
	for _, t := range Topics() {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}

// Of is the topic that is the reference of command, and whether there is
// one.
func Of(command string) (Topic, bool) {
	for _, t := range Topics() {
		if slices.Contains(t.Commands, command) {
			return t, true
		}
	}
	return Topic{}, false
}

// Text is the topic's page as its file holds it.
func (t Topic) Text() (string, error) {
	b, err := pages.ReadFile(t.File)
	if err != nil {
		return "", fmt.Errorf("read the page of topic %s: %w", t.Name, err)
	}
	return string(b), nil
}
