package agent

// ToolProgress is a running tool call's latest progress (SPEC B11), as
// its server reported it: Progress of Total (0: unknown) and the server's
// message, neutralized by the tool provider. Unlike every other event it
// is not must-deliver: the run forwards it from the provider's reports
// (tool.WithProgress; progress.go), and a follower that is behind gets only
// the latest, so a chatty server can never hold up the run. It never
// follows its call's ToolCallFinished. Each is a snapshot; nothing needs
// to be summed.
type ToolProgress struct {
	// CorrelationID and Identity name the call (as in ToolCallStarted).
	CorrelationID string
	Identity      string
	Progress      float64
	Total         float64
	Message       string
}

func (ToolProgress) isEvent() {}
