// Package servers owns Settings › Tools & Workflows › MCP Servers (SPEC B,
// L2): the list of configured servers ([List]) and the modals it opens
// above Settings — the server editor ([Editor]), the connection test
// report ([Report]) and the remove confirmation. [Backend] is the narrow
// interface it needs, with [Input] and [TestView]; the server and tool
// views it shares with the other pages live in tui/settings.
//
// While the list is shown it follows the servers (SPEC B5): over a Backend
// that is also a [Watcher] it keeps one wait armed against the list on
// screen, and a server that warms up, connects or goes down changes its
// row without a key, the cursor staying on its server (follow.go).
//
// The secret field is masked and write-only: editing shows only whether a
// secret is stored. Saving and testing never activate (SPEC B2):
// activation is its own key in a report of a test that connected, so the
// activate key of the list runs a test first; deactivation acts at once.
// Esc abandons a running test by cancelling its context. What servers say
// is shown as "server claims (unverified)" and changes nothing (SPEC D2).
//
// # Boundaries
//
// servers imports tui/kit and tui/settings only, never the root or another
// page: the skills a server serves (SPEC I1) open through the function the
// root hands to [New]. Its Cmds call the Backend with a bounded context and
// return typed messages; Update and View do no I/O. Like every package
// under tui it imports neither bbolt, net/http, a keyring package nor
// vouch/store (internal/archtest).
package servers
