// Package safetext owns the neutralising of untrusted text before it reaches
// a terminal: model output, tool results, MCP server text, error messages
// that quote a server. Nothing that comes from outside vouch is printed
// without passing through [Neutralize] (SPEC D3, L; ARCHITECTURE invariant
// "no server-, model- or package-supplied text reaches the terminal with
// control sequences").
//
// # What it does
//
// [Neutralize] returns text that a terminal can only print:
//
//   - Escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ESC
//     sequences) are removed whole, so "\x1b[2J" or an OSC 52 clipboard
//     write leaves no trace. An unterminated string sequence loses only its
//     introducer; its payload stays as ordinary, harmless text.
//   - C0 controls other than "\n" are removed; "\t" becomes spaces up to the
//     next multiple of [TabWidth] columns; "\r\n" becomes "\n" and a lone "\r"
//     becomes "\n" (so it cannot overwrite a line already printed); DEL and
//     C1 controls (U+0080–U+009F) are removed.
//   - Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069),
//     bidi marks, and invisible format characters (zero-width space, word
//     joiner, byte-order mark, Unicode tag characters, …) are made visible as
//     markers such as "⟨U+202E⟩", so text cannot be reordered or hide
//     instructions. The zero-width joiner and non-joiner stay, because emoji
//     sequences and several scripts need them.
//   - U+2028 and U+2029 become "\n". Invalid UTF-8 becomes U+FFFD.
//
// The result is idempotent: Neutralize(Neutralize(s)) == Neutralize(s).
//
// # One escaping rule for every output
//
// The TUI, plain CLI output and every --json output neutralise the same
// code points (SPEC D3; issue 14 item 5). [Hidden] is that set: C0
// controls but tab and newline, DEL, C1 controls (U+0080–U+009F), U+2028
// and U+2029, and everything [Neutralize] shows as a marker — bidi
// controls, zero-width and other invisible format characters, the BOM, tag
// characters. Text for a terminal goes through [Neutralize] or [Line].
// JSON cannot lose or alter data a script may need, so [EscapeJSON]
// rewrites encoded JSON with each Hidden code point inside a string
// written as a \uXXXX escape (a surrogate pair above U+FFFF): the output
// is ASCII-safe for a terminal, a bidi-aware viewer or a script that
// prints a field, and any JSON reader decodes the original string
// exactly. cmd/vouch's writeJSON passes every --json output through it.
// Text that was already neutralised at a boundary (MCP tool definitions
// and results, mcpclient) decodes to that neutralised form, which is what
// vouch holds.
//
// [MixedScripts] flags a name whose letters mix scripts (a Latin tool
// name with Cyrillic or Greek look-alikes); such text is printable and is
// shown as it is, with the warning beside it.
//
// # Cost
//
// Neutralize is linear in the length of its input. Text that needs no change
// (the common case) is returned as is, without allocating. [Line] builds on
// it for one-line, width-bounded labels.
//
// # Caveats
//
// Neutralize works on a complete string. A stream must be neutralised after
// its chunks are joined, not chunk by chunk, or an escape sequence split over
// two chunks would leave its tail behind as text (still harmless, but noisy).
// Homoglyphs are not changed: they are printable and shown as they are;
// only [MixedScripts] flags a mixed-script name.
package safetext
