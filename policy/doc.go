// Package policy owns tool classification and approval decisions: the local
// rules a person reviewed (SPEC D1), the frozen snapshot a run decides every
// call against (SPEC D6), and the audit record of each decision. It decides;
// it never renders, stores or asks.
//
// # Rules
//
// A Rule classifies one tool identity (SPEC C1): mcp:<server-id>:<tool> or
// builtin:<name>. It has two parts, both set only by the person — through
// the approval pane's "classify", the policy screen, or `vouch policy set`:
//
//   - the class: Ask (every call waits for the person), Allow (runs without
//     asking), or Block (never runs; the model reads a refusal);
//   - the effect: ReadOnly, Idempotent or Mutating. Session recovery (SPEC
//     B7) replays a call only when its reviewed effect is ReadOnly or
//     Idempotent; Snapshot.Effect is where it reads it.
//
// An Allow rule may be narrowed by Constraints on top-level arguments:
// "under" (a path at or below one of the listed folders) and "one-of" (a
// string equal to one of the listed values). A call outside them asks.
// ValidateRule refuses malformed rules with one sentence, and refuses any
// rule that would allow a built-in tool that writes (ErrWriteAllow):
// anything that writes asks.
//
// # Pinned definitions
//
// A rule also pins the tool's definition as the person saw it when they
// classified it (Rule.Pin, SPEC D8; pin.go): the digest of its canonical
// JSON — name, title, description, input and output schema, annotations,
// with keys sorted and white space dropped — and that JSON, to show what
// changed. A Call carries the digest of the definition served now
// (Call.Definition, which whoever serves the tool computes once per fetched
// catalog). While the two differ the rule does not apply: Decide asks with
// ReasonChanged and the pinned definition in Decision.Changed, Effect says
// Mutating (no session-recovery replay), Summary and Changed mark the tool
// for listings; a blocking rule still blocks. The same definition served
// again gets the rule back. A rule saved before vouch saw a definition
// pins nothing and does not apply to the first definition served (Unseen,
// ReasonUnseen): that call asks, and the application pins the rule to the
// definition the person allowed (Snapshot.WithPin for the rest of a run).
//
// # Defaults
//
// With no rule for an identity, Snapshot.Decide:
//
//   - allows the built-in read-only workspace tools (builtin:fs_list,
//     builtin:fs_read, builtin:fs_search) when their path argument stays
//     inside the workspace — relative and not climbing out with "..", or
//     absolute below Options.Workspace — and asks otherwise;
//   - asks for every other built-in tool (builtin:fs_write, builtin:fs_edit
//     and whatever comes): anything that writes asks, whatever a rule says;
//   - asks for every external tool: "Every new external tool asks until you
//     classify it." Its effect is Mutating until the person says otherwise.
//
// # How arguments are read
//
// A decision reads the arguments exactly as the tool will receive them
// (SPEC D5): the bytes of Call.Arguments. They must be one JSON object with
// distinct top-level keys. A repeated key asks, because encoding/json keeps
// the last value while other parsers may keep the first, and the policy
// will not judge one value while the tool reads another; for the same
// reason a key that differs from a constrained argument only by case asks.
// Paths are judged lexically with path.Clean semantics after refusing
// control characters (NUL included), surrounding white space and, for
// "under", backslashes and any ".." element at all — a symbolic link can
// make "a/../b" land anywhere, so a path under a constraint never climbs.
// The built-in reads may climb within the workspace ("a/../b"), because
// their os.Root refuses every escape, links included. The check is
// lexical: a server that decodes a value further (percent-escapes, "~",
// variables) is judged on the text it receives, so constrain such a tool
// with one-of, or let it ask.
//
// # What never enters a decision
//
// Decide's only inputs are the snapshot and the Call: identity, arguments,
// correlation ID and the served definition's digest — which can only take
// a rule away, never grant one. There is no parameter for a server's annotations
// (readOnlyHint, destructiveHint and the rest, SPEC D2), a tool's
// description, a tool result, a skill, or anything the model says; they
// cannot lower the approval requirement because they never reach the code
// that decides. Not even a "classify" answer reaches a running decision:
// it changes the stored rules, which the next run's snapshot reads.
//
// # Concurrency
//
// A Snapshot is immutable once NewSnapshot returns: Decide, Effect, Rule
// and Summary may be called from any number of goroutines, and copies share
// nothing that anyone mutates. The rules and constraints handed in and out
// are copies. AskEverything is the fallback when the stored rules cannot be
// read: every call asks, every effect is Mutating.
//
// # Cost
//
// A decision is a map lookup, plus — for the built-in reads and allow rules
// — one validating scan of the arguments and one scan for the top-level
// keys; only keys and the string values a decision reads are decoded.
// BenchmarkDecide64KB measures 64 KB of arguments; the pin check is one
// string comparison (BenchmarkDecidePinned*).
package policy
