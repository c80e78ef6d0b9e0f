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
// top modal when one is open, else to the chat screen's [ChatKeyMap], else to
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
//     (settle.go, SPEC D7), global keys ([KeyMap], keys.go), the chat
//     screen's input and status line (status.go), conversations
//     (conversations.go), the model picker (picker.go), the queues of
//     calls waiting for approval and where their answers go
//     (update_approval.go), the MCP Apps glue (apps.go), the Cmds that
//     call the [Backend] (cmds.go) and the goldens that drive the whole
//     program.
//   - tui/kit: what every room shares — kit.Common (size, styles,
//     clock), the theme and styles, the kit.Modal interface and its
//     Actions, the modal frame, kit.Confirm, and the list and page state
//     (kit.Loads, kit.ListCursor, kit.PageFrame). It imports no room.
//   - tui/chat: the transcript, its renderer and render cache, and the
//     stream reader that coalesces a run's deltas.
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
// # Streaming
//
// Backend.Send returns a run's event channel. One [chat.StreamReader]
// reads it through a re-armed Cmd: text and reasoning deltas are joined and
// delivered at most every 33 ms, while tool calls, usage and Done are
// must-deliver — they end the current message at once, after the text that
// preceded them, in order. Nothing read is dropped. Esc or ctrl+c cancels the
// run's context (SPEC A5); what the run left unfinished is marked
// "(interrupted)" when its Done arrives. A reply that stopped at its length
// limit (Done.CutOff) is marked "(cut off at its length limit)", and while
// it is the last answer and the input is empty alt+c sends ContinuePrompt,
// an ordinary message, so the request extends the previous one byte for
// byte (SPEC A6, A7). A Usage whose PromptCut is set (the server cut the
// prompt on its own) is said in the status line at once and after the run.
// A person's message whose run ended with no reply at all (refused for the
// budget before inference, say) is marked "(not answered; not sent
// again)", live and when loaded from history: the chat service leaves it
// out of later requests. After ctrl+o the status line shows the tool
// budget as the same share of the new model's window (none while that
// window is unknown) until the next run plans again.
//
// While a turn is in flight the phase line above the input (phase.go)
// shows a spinner, the seconds since enter on the injected clock and what
// the person waits for, from the run's events: preparing the request
// until agent.RequestSent (which internal/app puts on the events from the
// model client's HTTP transport), waiting for the model until the first
// delta, streaming, running a tool, waiting for your approval; under a
// pane the status line carries it. Its tick chain is tagged with the run
// and ends with it. An error shows whole on up to four lines above the
// status line, its advice (after the last "; ") never cut; alt+e shows a
// longer one whole (errline.go). A turn that got no reply brings its text
// back into an empty input, and alt+r sends the last failed message again
// (retry.go). A call policy let run without asking is marked "(allowed by
// your rule)" from agent.CallAllowed, a denial with its note
// (decisions.go).
//
// # Rendering
//
// The transcript caches each item's rendered lines by (width, version).
// Finished items are frozen, so only the streaming item renders again per
// frame; and only visible items are rendered at all: following the bottom,
// the transcript walks back from the last item until the screen is full. A
// resize re-wraps lazily, item by item as they come into view. Markdown is
// rendered by a small line-based renderer (tui/chat) suited to a hot path.
// All untrusted text — model output, tool results, server text, errors —
// passes through [vouch/safetext.Neutralize] before it is drawn (SPEC D3).
//
// # Modals
//
// Modals implement [kit.Modal] and live on an explicit stack in the root. Only
// the top modal gets keys, and the help line shows its bindings; it answers
// with an [kit.Action] the root applies, and it receives the current size when
// pushed and on every resize. Who the keyboard belongs to is the root's
// (keyboard.go, SPEC D7): a pane that grants ([kit.Asker]) and appears
// while the person is composing — text in the input, or a printable key in
// the last 2 s — answers nothing until tab, every key going on into the
// message whatever pauses follow; a printable key that is not one of the
// pane's gives the keyboard back the same way; focus-in, an attach and a
// resize count as the person having been elsewhere. Once the pane has the
// keyboard it settles (settle.go): no key reaches it until the keyboard has
// been quiet for its settle period (KeyGrace, 500 ms by default), measured
// with the injected clock. Modals opened by the person's key hold back only
// their granting keys (granter). A tick, tagged so stale ones are dropped,
// redraws the modal when it settles. The
// model picker, Settings and tool approval are modals; skill install
// preview, run history and the approvals inbox (SPEC L2) fit the same
// interface.
// A modal opens another on top of itself by returning [kit.OpenModal]; only
// the top modal is drawn, over a cleared chat area (compose.go), so neither
// transcript text nor the border of the modal below shows around it. Results of Cmds go to the top
// modal only, so a modal that needs to see what the one above it changed
// implements reveal, which the root calls when it is on top again.
//
// # Approvals
//
// A tool call whose server asks the person (MCP elicitation, SPEC B12)
// publishes an agent.InputRequested; the root shows it in an
// approval.ElicitPane in front of the chat, under the same keyboard rule,
// and sends the one answer from a Cmd (update_elicit.go).
//
// A run that needs the person publishes an agent.ApprovalRequested and waits
// for one agent.Decision on its Reply channel (SPEC D4). The stream adapter
// delivers it like every non-delta event: at once, after the text before it,
// in order. The root queues the run's waiting calls and shows the first in
// the approval pane (tui/approval), which vouch renders from the call itself
// — identity, wire name, correlation ID, the local class and why, and every
// argument in the model's key order with control characters escaped and
// long values folded behind a key (SPEC D3). Its focus starts on Deny and it
// settles on its own, as does each queued call when its turn comes. A
// decision is sent once, from a Cmd, as the call leaves the queue; when the
// run ends or is stopped its waiting calls go with it. A Backend that also
// implements approval.ToolDescriber lets the pane name the server and list its
// annotations as unverified claims (SPEC D2).
//
// The pane speaks the policy's words: the request's Reason as why it asks
// and its Effect as the reviewed effect. A tool's Preview (for
// builtin:fs_write and fs_edit, a unified diff) is shown above the
// arguments, which stay complete below it (tui/approval's preview.go): every
// character a terminal would not print plainly becomes a visible marker
// such as "⟨U+001B⟩", each line keeps its "+", "-" or "@@", and a long
// preview folds behind the same v key as long arguments.
//
// # Policy
//
// A Backend that also implements tuipolicy.Editor enables classify (c) in
// the approval pane and the Policy page of Settings; without it, c stays
// disabled and the page says policy is not available here. Classify opens
// the rule editor (tui/ruleedit) on top of the pane, pre-filled from
// the call (ruleedit.FromCall, with the digest of the definition the
// request was decided on, so the rule binds to what the pane showed —
// SPEC D8): class ask, effect mutating, and each plain
// top-level string argument offered as a constraint that is off — a path
// under its folder, anything else one-of its value. Only the person's keys
// change a field; enter saves through the Editor's SaveRule in a Cmd, a
// refusal stays under the form with every field kept, and success closes
// the editor. Saving never answers the call: a rule applies to runs that
// start later (SPEC D6), so the pane is back, says the rule is stored, and
// settles again before a or d answers it. The editor itself settles like
// the pane.
//
// Settings › Policy (tui/settings/policy) lists the rules and
// the 20 most recent audited decisions, newest first, with times relative
// to the injected clock; enter edits a rule in the same editor, x deletes
// one after a confirmation whose default is Cancel, r refreshes.
//
// # Conversations
//
// A history that outgrows the model's context window makes every send fail
// with agent.ErrContextOverflow. A Backend that also implements
// [Conversations] lets ctrl+l start a new, empty conversation
// (conversations.go); the previous one stays stored. The key acts only
// while nothing runs and the stored conversation has loaded, and sending
// waits until the Backend has answered. On success the transcript, its
// render caches, the usage counters and the last error go; the typed input
// and the chosen model stay. An overflow error names the key in the status
// line.
//
// A Backend that implements [ConversationList] also lets ctrl+p open the
// conversation list (tui/convlist, conv_list.go, SPEC L5): enter reopens a
// stored conversation on the same terms as ctrl+l (nothing runs, nothing
// loads; the transcript is replaced and the stored one loads), ctrl+d
// deletes another one after a confirmation.
//
// ↑/↓ recall the conversation's earlier prompts and, for a mouse wheel
// (which arrives as bursts of arrows, since vouch captures no mouse),
// scroll the transcript; input_history.go gives the rule and why.
//
// # Settings
//
// ctrl+x opens Settings (tui/settings), a modal of pages under a section
// title: Tools & Workflows has MCP Servers (tui/settings/servers), Tools
// (tui/settings/tools), Policy (tui/settings/policy), Skills
// (tui/settings/skills) and, when the Backend has them, Workflows and
// Profiles; the root builds them (settings_pages.go). Tab and shift+tab
// switch pages; keys go to the page shown, every other message to all
// pages. The servers and tools pages go through [Options.Servers] inside
// Cmds; a nil Servers makes the pages say that MCP servers are not
// available here.
//
// When the Servers backend also implements serverskills.Backend, s on an
// active server opens its skills (tui/settings/serverskills), listed only
// then, and enter a skill's approval preview whose keys follow the
// skill's state (SPEC I1, I3-I6).
//
// The server editor, the test report and the remove confirmation
// (kit.Confirm) are modals
// above Settings. The secret field is masked and write-only: editing shows
// only whether a secret is stored. Saving and testing never activate
// (SPEC B2): activation is its own key in a report of a test that
// connected, so the activate key of the list runs a test first;
// deactivation acts at once. Esc abandons a running test by cancelling its
// context. A tool's switch moves only once SetToolEnabled has answered.
// What servers say about their tools is shown as "server claims
// (unverified)" and changes nothing (SPEC D2).
//
// # Agent Workflows
//
// A Backend may implement workflows.Backend, profiles.Backend,
// runs.History and approval.Inbox; the root discovers each by type
// assertion, and a pane whose capability is missing says so. Settings ›
// Tools & Workflows gains Workflows (tui/settings/workflows: the
// per-device switch, which moves only once the Backend answered, and
// every schedule with the sentence that schedules are not a server) and
// Profiles (tui/settings/profiles). n and enter open the profile editor:
// a definition picker, model defaults, workspace, skills enabled in
// prompt order (space, K, J) and a schedule; the form is checked first,
// each refusal one sentence on the field to fix, and SaveProfile stores a
// new revision. t opens the per-profile tool selection pane: the Tools
// page's list over another tools.Source, so the profile's allowlist is
// edited with the same grouping, filter, status and token cost; a tool
// not selected is not available to the profile's runs. When the Backend
// is also a profiles.Runner, g asks for a task and starts the profile now
// in the background; its approvals wait in the inbox like a scheduled
// run's.
//
// ctrl+r opens the run history (tui/settings/runs): runs a page at a time, and one
// run with the specification it froze, its calls with correlation IDs,
// approvals, events and outcome. ctrl+e opens the approvals inbox
// (tui/approval's inbox.go): calls of background runs waiting for the person. Enter shows
// one in the same approval pane as a chat call, settling like it, with
// focus on Deny; the root sends its answer to that run through
// Inbox.AnswerApproval from a Cmd (update_approval.go), and ctrl+c goes
// back without answering. The status line counts the waiting calls, read
// from Inbox.InboxChanges through a re-armed Cmd.
//
// # Terminal
//
// The interface needs [MinWidth] x [MinHeight] cells (60x16, SPEC L6);
// below that View is a notice that names a waiting approval, and no key
// answers a modal it does not show but ctrl+c, which stops the run; drawn
// again, the modal settles again. Under 14 rows the approval pane takes a
// compact form: the tool, its server and host, the arguments folded, the
// keys. [ProgramOptions] asks for the alternate screen and no
// mouse capture, so the terminal's text selection keeps working. NO_COLOR
// ([Options.NoColor]) removes every colour code; emphasis falls back to bold,
// faint and reverse. "Copy answer" and "copy code" write OSC 52 to
// [Options.Clipboard], which works over SSH; inside tmux ([Options.Tmux]) the
// sequence is also sent through tmux's passthrough. What is copied is the
// neutralised text, as shown, but for its tabs, which stay tabs (a
// Makefile recipe pastes whole; chat.Copyable). Help and hints never end in a cut (help.go):
// "?" reflows every key into the columns that fit, and a modal's hints
// wrap onto a second line, except a pane waiting for a decision, which
// keeps its rows. On quitting, [Model.QuitSummary] is what cmd/vouch
// prints once the alternate screen is left.
//
// # Tool selector
//
// A Backend that is also a toolselect.Source gets the per-conversation
// tool selector (toolselect_root.go; SPEC F3, L2): it opens when a server
// just activated in Settings brings tools over the budget, and on alt+t
// after a message was refused for the tool budget (agent.ErrToolBudget),
// then sorted by cost. It turns tools off for the conversation, never
// defers one that asks.
//
// # Notifications
//
// While the terminal is not focused, the root asks [Options.Notifier] from
// a Cmd to notify (SPEC L4; notify.go): a chat call that starts waiting
// for approval, a rise in the approvals inbox, a background run's end (a
// Backend that is also a [RunEnds]) and a turn longer than
// [Options.LongTurn]. [ProgramOptions] turns on focus reports (DECSET
// 1004); until the terminal sends one, it counts as not focused, so a
// terminal that never reports is always told. The Notifier — internal/notify
// behind internal/tuiwire — holds the level, the rate limit and the escape
// sequence, and cleans the server and tool names each note carries. With a
// Notifier, Settings › Tools & Workflows gains Notify
// (tui/settings/notifications), where the level is picked.
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
// Adaptive colours ask the terminal for its background on first use. The
// command line should settle that (lipgloss.HasDarkBackground) before the
// program starts, or pass a Renderer that knows it.
//
// # Size
//
// The root is just over the project's ~3,000-line guideline: it is the
// program, the router, the modal stack with its settle rule, the approval
// queues and the MCP Apps glue, which all act on the root Model; every pane
// family already lives in its own package.
package tui
