// Package tui owns the Bubble Tea interface: the root router, the modal stack,
// the chat screen (transcript, input, status line) and its panes.
//
// Update and View never do I/O. Everything that touches the model server, the
// database, MCP servers or the keyring goes through the Backend interface, and
// only from inside a tea.Cmd. Untrusted text (model output, server text) is
// neutralised before it is rendered.
package tui
