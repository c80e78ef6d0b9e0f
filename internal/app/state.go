package app

import (
	"context"
	"errors"

	"vouch/store"
)

// State is what a command-line operation works on: the database, the
// keyring and the MCP servers, without a conversation or a workspace.
// Open it with OpenState and Close it when done.
type State struct {
	data
	secrets *store.Secrets
	mcp     *MCP
	// borrowed: the database and MCP service are an App's (StateOf).
	borrowed bool
}

// OpenState opens the state directory for one command-line operation:
// the database, the keyring when it opens (see OpenSecrets) and the
// configured MCP servers with their cached catalogs.
func OpenState(ctx context.Context, stateDir string, getenv func(string) string) (*State, error) {
	db, err := openDB(stateDir)
	if err != nil {
		return nil, err
	}
	secrets := OpenSecrets(stateDir, getenv)
	svc, err := newMCP(ctx, db, secrets)
	if err != nil {
		return nil, errors.Join(err, db.Close())
	}
	return &State{data: data{db}, secrets: secrets, mcp: svc}, nil
}

// Close closes the MCP manager and the database; a State of an App
// (StateOf) leaves them to the App.
func (s *State) Close() error {
	if s.borrowed {
		return nil
	}
	if s.mcp == nil { // the database alone (WithDB)
		return s.db.Close()
	}
	return errors.Join(s.mcp.Close(), s.db.Close())
}

// MCP is the state's MCP service.
func (s *State) MCP() *MCP { return s.mcp }

// WithDB opens only the database of stateDir for fn, as a State without
// a keyring or MCP servers (MCP and ServerSkills are then nil), and
// closes it.
func WithDB(stateDir string, fn func(*State) error) error {
	db, err := openDB(stateDir)
	if err != nil {
		return err
	}
	return errors.Join(fn(&State{data: data{db}}), db.Close())
}

// Conversations lists the stored conversations (see App.Conversations),
// none of them marked current.
func (s *State) Conversations(limit int) ([]ConversationView, error) {
	return listConversations(s.db, limit, "")
}

// ServerSkills are the server skills over the state's database and MCP
// servers; nil on a State of the database alone (WithDB).
func (s *State) ServerSkills() (*ServerSkills, error) {
	if s.mcp == nil {
		return nil, errors.New("server skills need the MCP servers: this state opened the database alone")
	}
	return newServerSkills(s.db, s.mcp.mgr)
}
