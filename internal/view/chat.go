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

// CallDecision is what was decided on one tool call, as the decision
// audit keeps it (policy.Record): the outcome ("allowed", "auto-allowed",
// "denied", "blocked", "unanswered"), who decided ("person", "policy
// rule", "policy default", ...) and the person's note on a denial.
type CallDecision struct {
	Outcome string
	By      string
	Note    string
}
