// Package notifications owns Settings › Tools & Workflows › Notify
// (SPEC L4, L2): the level of terminal notifications — off, the bell,
// approvals (the default) or all events — picked with the keyboard, the
// sequence vouch found for this terminal, and the long-turn threshold.
// The level moves only once the Backend has answered. [Backend] is the
// narrow interface it needs; the root finds it on its Notifier by type
// assertion, and without it the page says notifications are not
// available.
//
// # Boundaries
//
// notifications imports tui/kit and tui/settings only, never the root or
// another page. Its Cmds call the Backend with a bounded context and
// return typed messages; Update and View do no I/O.
package notifications
