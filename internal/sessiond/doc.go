// Package sessiond owns the session process's socket and the terminal
// relay: the part of vouch that lets the interface outlive its terminal
// (SPEC K4).
//
// # Design
//
// The session process hosts the application (internal/app) and the Bubble
// Tea interface itself; `vouch` is a thin terminal relay, as tmux, dtach,
// mosh or charmbracelet's wish are. Reattaching therefore shows the
// screen exactly as it stands — the conversation, a reply still
// streaming, the approval pane in front — with no state to rebuild.
//
// Server listens on a Unix socket, SocketPath(stateDir) =
// <state-dir>/session.sock, mode 0600, in a directory that must pass
// CheckStateDir — the user's own, not writable by others, not a symbolic
// link — the one rule every path of vouch applies to a state directory;
// never TCP. Each connection's peer uid comes from the kernel
// (SO_PEERCRED); another uid gets one sentence (ErrForeignPeer) and is
// logged.
//
// Clients check the session as it checks them. Dial connects only when
// the state directory passes CheckStateDir, the socket is a socket owned
// by the user, and the process answering on it runs as the user (the
// client side's SO_PEERCRED); anything else is one sentence naming the
// path (ErrUntrusted), and nothing was written to it. What a session
// sends outside the interface's frames (replies, byes) is untrusted text
// for the caller to neutralise.
//
// Simultaneous first starts converge: a client that found no session
// takes the start lock (StartLock, flock on <state-dir>/session.lock),
// dials again, and only then starts one, holding the lock until it
// listens. A session removes its socket when it ends only while the path
// still holds the socket it created (same device and inode) and no start
// is under way, so an old session never removes a newer one's.
//
// The protocol is framed: one Kind byte, a big-endian uint32 length
// (at most MaxPayload) and the payload. A client opens with Hello: its
// role (a terminal, or a command's control requests), the environment
// the interface reads (EnvKeys: TERM, COLORTERM, NO_COLOR, TMUX, LANG and
// LC_*, …), its terminal size and background, cwd and pid. A terminal then
// sends Input and Resize frames and receives Output, Status (its role,
// and whether an approval waits) and Bye (why the connection ends); a
// command sends Requests and reads Replies up to one with Done.
//
// One tea.Program runs at a time, with its input from a pipe fed by the
// terminal that holds the keyboard and its output to a hub that fans out
// to every attached terminal. The hub never blocks the renderer: each
// client has a bounded queue, and a client that cannot keep up or fails
// is dropped (running vouch again reattaches). The program is drawn at
// the smallest attached terminal's size, per dimension (tmux's
// window-size smallest), so every window shows the frame whole: a larger
// one shows it in its top left corner with the rest cleared, never
// wrapped. Every attach, take-over, resize and leave sizes the program
// again and redraws every terminal from scratch (a screen clear and the
// whole frame), and each client learns the frame's size in its Status.
// The program's colours come from the first holder's environment
// (Terminal.Renderer) and stay for the program's life.
//
// On attach, take-over, or when the holder leaves and a viewer takes the
// keyboard, the program gets Config.Attached's message (tui.AttachedMsg,
// with TakeOver set for ctrl+t): a full repaint, and the pane in front
// settles again (SPEC D7). The program's messages and keys are one ordered
// stream: a key a terminal sends right behind its hello or take-over frame
// reaches the interface after that attach, never before (issue 30). The
// client itself puts its terminal in the interface's modes (Modes) and
// restores it on every way out.
//
// # Roles
//
// The first terminal holds the keyboard; later ones view: they receive
// the same frames, their keys are not forwarded except TakeOverKey
// (ctrl+t), which swaps the roles, and their relay draws its own bottom
// line saying where the keyboard is, whether an approval waits there and
// whose size the frame is (ViewerText). A holder taller than the frame
// says below it that a smaller window sets the size.
//
// # Lifecycle
//
// A terminal that hangs up (SIGHUP, EOF) leaves the program running with
// nobody watching: nothing is decided, a waiting pane simply stays (SPEC
// D4). When the program quits, the session ends at once unless
// Config.Needed says something still needs it (a run in flight, a call
// waiting in the inbox, a schedule while the Workflows switch is on); it
// then stays, and the next terminal starts a new program. With no
// terminal attached it asks again every Config.IdleAfter (the
// session-idle setting) and exits when nothing is needed, so a session
// kept by a run exits within twice that after the run ends. A session
// whose socket file is gone (its state directory was removed) can never
// be attached again and exits within a few seconds, runs or not. OpExitIfIdle lets a command that found the
// database locked ask an idle session to exit.
//
// # Caveats
//
// Program.Send blocks until the event loop takes the message, so the
// server never calls it while holding its lock: it queues sizes, repaints
// and the holder's keys under the lock (stream), and one goroutine per
// program delivers them in that order, each received before the next: a
// message by Program.Send, keys by the program's input, which lets the
// next item go only once the read loop asks for more bytes (it has handed
// the earlier keys to the event loop). A client whose frames fill the
// stream is read no further until it drains; nothing waits under the lock.
// The program's input is a plain io.Reader: Bubble Tea's cancel reader
// would poll a file's descriptor and race its Close.
package sessiond
