package app

import (
	"context"
	"fmt"

	"vouch/agent"
)

// A command through the session (SPEC K5) runs on the session's App: the
// one writer of the database. StateOf and OpenShared give a command what
// OpenState, WithDB and Open give it in-process, over the session's
// database, keyring and MCP service, which stay open when the command is
// done — and with the command's own workspace and conversation, so that a
// `vouch run` beside an open interface is a run of its own.

// StateOf is the command-line State over a's database, keyring and MCP
// servers; closing it leaves them open.
func StateOf(a *App) *State {
	return &State{data: a.data, secrets: a.mcp.secrets, mcp: a.mcp, borrowed: true}
}

// OpenShared opens an App for one command over base's database and MCP
// service with the workspace at dir and the latest conversation current,
// as Open does. Closing it closes only its workspace.
func OpenShared(_ context.Context, base *App, dir string) (*App, error) {
	conv, ok, err := base.db.LatestChatConversation()
	if err == nil && !ok {
		conv, err = base.db.CreateConversation("")
	}
	if err != nil {
		return nil, fmt.Errorf("open the conversation: %w", err)
	}
	ws, err := agent.OpenWorkspace(dir)
	if err != nil {
		return nil, fmt.Errorf("open the workspace %s: %w", dir, err)
	}
	a := &App{data: data{base.db}, convID: conv.ID, transcript: &storeTranscript{db: base.db, convID: conv.ID}, workspace: ws, mcp: base.mcp, shared: true}
	a.policy = newPolicy(base.db, dir, func() string { id, _ := a.Current(); return id })
	a.policy.SetServed(base.mcp.mgr)
	return a, nil
}
