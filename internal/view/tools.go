package view

// ToolDescription tells the approval pane where a tool comes from: the
// label the person gave its server and the host of its endpoint (both
// empty for built-in tools), and the server's own title and annotations
// as unverified claims ("readOnlyHint: true").
type ToolDescription struct {
	ServerName string
	ServerHost string
	Title      string
	Claims     []string
	// Digest is the digest of the definition served now (what a pin
	// binds to, SPEC D8); "" for built-in tools.
	Digest string
}

// ToolView is one selectable tool as the interface's tool lists show it.
type ToolView struct {
	Identity    string
	ServerID    string
	ServerName  string
	Name        string
	Title       string
	Description string
	// Executable reports whether the tool can be offered now; Enabled
	// whether it is on (for a conversation or in a profile's allowlist).
	Executable bool
	Enabled    bool
	// Claims are the server's annotations, unverified (SPEC D2).
	Claims []string
	// Tokens is what the tool costs inline (SPEC F1); 0 when unknown.
	Tokens int
	// Changed says the definition is not the one its rule pinned (SPEC D8).
	Changed bool
}

// ToolSelection is the current conversation's tools as the tool selector
// shows them (SPEC F1–F3, L2): every tool a chat run could offer, and the
// budget for a model with window tokens.
type ToolSelection struct {
	Window, Budget int
	// MetaTokens is what deferring costs: the meta-tools a run sends
	// once any tool is deferred.
	MetaTokens int
	Tools      []ToolChoice
}

// ToolChoice is one tool of a ToolSelection. Server and Name are the
// person's label and the tool's name, neutralised.
type ToolChoice struct {
	Identity string
	Server   string
	Name     string
	Tokens   int
	Asks     bool
	On       bool
}
