package view

// ChatInfo is what the chat is connected to: the model server, its kind,
// the model and its context window, and the one sentence to show when
// something of it is not known.
type ChatInfo struct {
	ServerURL     string
	ServerKind    string
	Model         string
	ContextWindow int
	Warning       string
}
