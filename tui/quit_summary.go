package tui

// QuitSummary is what vouch leaves in the scrollback after the person
// quits (SPEC L6; issue 18 item 21; chat.Transcript.Summary). The caller
// prints it after the program has left the alternate screen (cmd/vouch's
// runProgram); View draws nothing once quitting.
func (m Model) QuitSummary() string { return m.chat.Summary(m.opts.Demo) }
