// Package tui owns the Bubble Tea interface: the root router, the modal stack,
// the chat screen (transcript, input, status line) and its panes.
//
// # Basics
//
// The command line builds the program with
//
//	p := tea.NewProgram(tui.New(backend, tui.Options{Model: m}.WithEnv(os.Getenv)),
//		tui.ProgramOptions()...)
//
// [New] returns the root [Model]. Update is a short router: keys go to the
// top modal when one is open, else to the chat screen's [chat.KeyMap], else to
// the input; results of Cmds go to the handler of their family
// (update_keys.go, update_stream.go, update_backend.go). Shared state — size,
// [kit.Styles], [KeyMap], the clock — travels explicitly in [Common]; the package
// has no mutable globals. Colours exist only as semantic tokens of a [kit.Theme]
// (tui/kit), turned into styles once by [kit.DefaultStyles].
//
// # Packages
//
// The interface lives in rooms; no room imports a sibling, and none
// imports the root; every room may import tui/kit and the shared
// components (tui/ruleedit, and tui/settings/tools, which the profiles
// page embeds) (internal/archtest):
//
//   - tui (this package): the program ([New], [Model]), the router
//     (update_*.go), the modal stack (modal.go) and its settle rule
//     (settle.go) and keyboard rule (keyboard.go, SPEC D7), global keys
//     ([KeyMap], keys.go), the chat screen's input, conversations
//     (conversations.go), the queues of calls waiting for approval and
//     where their answers go (update_approval.go), the glue of each part
//     below, the Cmds that call the [Backend] (cmds.go) and the goldens
//     that drive the whole program.
//   - parts of the chat screen, each with a narrow interface and no I/O
//     of its own: tui/statusline (the status line's layout and figures),
//     tui/errline (the error line), tui/phase (the phase line's steps,
//     spinner and tick), tui/history (what ↑/↓ do: recall and wheel
//     bursts), tui/picker (the model picker), tui/apps (MCP Apps' host,
//     Cmds and latest view), tui/notes (terminal notifications: the
//     Notifier, the timing, the words) and tui/clipboard (OSC 52).
//   - tui/kit: what every room shares — kit.Common (size, styles,
//     clock), the theme and styles, the kit.Modal interface and its
//     Actions, the modal frame, kit.Confirm, and the list and page state
//     (kit.Loads, kit.ListCursor, kit.PageFrame). It imports no room.
//   - tui/chat: the chat screen's bindings (chat.KeyMap), the transcript,
//     its renderer and render cache, the quit summary, and the stream
//     reader that coalesces a run's deltas.
//   - tui/ruleedit: the rule editor, a shared component: the approval
//     pane's classify and the Policy page both open it, through a
//     function the root hands them, and hear its ruleedit.SavedMsg.
//   - tui/approval: the approval pane (arguments, preview, what changed),
//     its queue types, the approvals inbox and an app's consent, with the
//     approval.ToolDescriber and approval.Inbox backends it needs.
//   - tui/settings and the packages below it: the Settings frame
//     (settings.Model, the settings.Page interface, the server and tool
//     views its pages share) and one package per page — servers,
//     serverskills (a server's skills), tools (the tool selection list,
//     also embedded by profiles), skills, workflows, profiles — and runs
//     (the run history). Each declares the narrow backend it needs; the
//     root composes them (settings_pages.go).
//
// Each room gets kit.Common and its own key bindings from whoever builds
// it; the root's [Common] is kit.Common plus every binding.
//
// # I/O
//
// Update and View never do I/O. Everything that touches the model server, the
// database, MCP servers or the keyring goes through the [Backend] interface,
// and only from inside a tea.Cmd (cmds.go) that captures copies of its inputs
// and returns a typed result message. The first frame is drawn before any
// Backend call: Init returns the Cmds that load the conversation and the
// server's description, and the model list loads when the picker opens.
// Look-ups carry a timeout; their failures are one sentence above the status
// line, and the conversation stays as it is.
//
// # Behaviour
//
// What each part of the interface does — streaming, rendering, modals,
// approvals, policy, conversations, Settings, Agent Workflows, the terminal,
// the tool selector and notifications — is described in docs/TUI.md, with
// the SPEC IDs each answers.
//
// # Caveats
//
// Model is a value, but its transcript and render caches live behind a
// pointer: like every Bubble Tea model, only the latest Model returned by
// Update is meant to be used. View fills render caches (memoisation, as the
// bubbles textarea does) and changes nothing else.
//
// OSC 52 writes happen in a Cmd, concurrently with the renderer's writes to
// the same terminal; each is a single write, and terminals cap the size
// (copies over 512 KiB are refused with a message).
//
// Adaptive colours read the background lipgloss was given. No vouch
// process asks the terminal at package init (a.vouch/early settles it
// first, issue 28 item 18); what draws the interface asks the terminal
// itself before the program starts (internal/host) and passes the answer
// on (lipgloss.SetHasDarkBackground, or the session's Renderer).
//
// # Size
//
// The root is over the project's ~3,000-line guideline and under the
// 4,000 issue 23 set for the files directly in tui/: it is the program,
// the router, the modal stack with its settle and keyboard rules, and the
// approval queues, which all act on the root Model. Every pane family and
// every part of the chat screen that needs no root state lives in its own
// package.
package tui
