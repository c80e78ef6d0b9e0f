package tools

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/settings"
)

// ListedMsg carries the tools of a Source, with the servers they belong to
// for the group headers, for load Seq. Scope says whose selection it is:
// "" for the conversation's, or a profile's. A Source other than
// Conversation answers its Load with one.
type ListedMsg struct {
	Scope   string
	Seq     int
	Tools   []settings.ToolView
	Servers []settings.ServerView
	Err     error
}

// ToggledMsg carries what became of a switch of a Source: SetToolEnabled,
// or the profile's allowlist for the Scope of a profile.
type ToggledMsg struct {
	Scope    string
	Identity string
	Enabled  bool
	Err      error
}

// loadTools asks for the tools and the servers they belong to.
func loadTools(s Catalog, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		tools, err := s.Tools(ctx)
		if err != nil {
			return ListedMsg{Seq: seq, Err: fmt.Errorf("could not list the tools: %w", err)}
		}
		servers, err := s.ListServers(ctx)
		if err != nil {
			return ListedMsg{Seq: seq, Err: fmt.Errorf("could not list the MCP servers: %w", err)}
		}
		return ListedMsg{Seq: seq, Tools: tools, Servers: servers}
	}
}

func setToolEnabled(s Catalog, identity string, enabled bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := s.SetToolEnabled(ctx, identity, enabled)
		if err != nil {
			verb := "turn on"
			if !enabled {
				verb = "turn off"
			}
			err = fmt.Errorf("could not %s the tool: %w", verb, err)
		}
		return ToggledMsg{Identity: identity, Enabled: enabled, Err: err}
	}
}
