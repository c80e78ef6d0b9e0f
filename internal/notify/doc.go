// Package notify owns vouch's terminal notifications (SPEC L4): which
// escape sequence the terminal understands, how it passes through a
// multiplexer, how untrusted text is made safe inside it, how often one
// may be sent, and writing it between the interface's frames.
//
// It is pure apart from the io.Writer a [Writer] is given: no globals, no
// environment reads of its own ([Detect] takes a getenv), no clock of its
// own (a [Limiter] and a [Writer] take one).
//
// # Which sequence
//
// [Detect] picks a [Kind] from the environment, first match wins:
//
//   - OSC 99 (kitty's protocol, title and body, ST-terminated): TERM is
//     xterm-kitty or KITTY_WINDOW_ID is set. Source: kitty's "Desktop
//     notifications" (sw.kovidgoyal.net/kitty/desktop-notifications).
//   - OSC 777 ("notify;title;body", BEL-terminated): TERM_PROGRAM ghostty
//     (or GHOSTTY_RESOURCES_DIR set), TERM rxvt-unicode* or foot*, or
//     VTE_VERSION set (GNOME Terminal, Tilix and other VTE terminals;
//     unpatched VTE since 0.46 ignores the sequence silently). Sources:
//     the urxvt notify extension and Fedora's VTE patch, as summarised in
//     ghostty discussion #10998; buildstream's VTE_VERSION check.
//   - OSC 9 (one message, BEL-terminated): TERM_PROGRAM iTerm.app or
//     WezTerm, LC_TERMINAL iTerm2 (survives ssh), or WT_SESSION set
//     (Windows Terminal). Source: iTerm2's "growl" escape code, WezTerm's
//     and Windows Terminal's docs.
//   - Anything else (Apple Terminal, xterm, alacritty, an unknown
//     terminal): the bell, which every terminal turns into something.
//
// The `notify-terminal` setting (auto|osc9|osc777|osc99|bell) overrides
// the detection ([Terminal.Override]). Inside tmux, TERM_PROGRAM names tmux
// itself, so the outer terminal is found only through the variables tmux
// keeps (KITTY_WINDOW_ID, VTE_VERSION, LC_TERMINAL, WT_SESSION, …) or the
// setting.
//
// # Multiplexers
//
// Inside tmux (TMUX set) a sequence reaches the outer terminal only through
// tmux's passthrough, "ESC P tmux; <sequence, every ESC doubled> ESC \", and
// only when allow-passthrough is on or all (tmux 3.3 and later default to
// off). The caller reports that state (it runs `tmux show-options -gqv
// allow-passthrough` with a short timeout, outside Update); off, unknown or
// failed, the notification is the bell, which tmux forwards as its
// bell-action says.
//
// Inside GNU screen (TERM screen* without TMUX) the sequence is wrapped in
// screen's DCS passthrough, "ESC P <sequence> ESC \", which screen always
// forwards. OSC 99 ends with ESC \, which would end screen's DCS early, so
// under screen kitty gets the bell.
//
// # Untrusted text
//
// A notification names a server's label and a tool: untrusted. [Clean]
// neutralises it with safetext (escape sequences, C0/C1 controls, bidi
// controls shown as markers), then removes what the sequence formats use as
// separators or terminators — ";" (777's fields, 99's metadata, and
// Windows Terminal's "9;4" progress sub-commands) — and caps it at
// [MaxRunes], so no text can end the sequence early or start one of its
// own.
//
// # How often
//
// A [Limiter] lets one notification through per [Window] (10 s: an
// approval chain of several calls, or a burst of scheduled runs ending
// together, rings once, while a new event a little later still does). The
// ones held back within the window are coalesced into one note, "2
// approvals waiting", sent when the window ends.
//
// # Levels
//
// [Level] off sends nothing; bell rings the bell for approvals only;
// approvals (the default) notifies for approvals only; all adds background
// runs finished or failed and turns longer than the `long-turn` threshold.
package notify
