// Package store owns vouch's persistent state: one bbolt file with a schema
// version and forward migrations, and secrets in the OS keyring.
//
// # Basics
//
// Open opens (or creates) the database, by default
// $XDG_STATE_HOME/vouch/vouch.db (see DefaultStateDir and FileName). It
// always passes a lock timeout to bbolt, so a second vouch on the same file
// gets ErrLocked within about a second instead of hanging (SPEC K1); the
// message names the holder's PID, read from a small <db>.lock-holder
// sidecar that Open writes and Close removes (LockHolder reads it for
// `vouch doctor`). Other failures are ErrNewerSchema, ErrCorrupt and
// ErrReadOnly; every sentinel lives in errors.go and its text says what to
// do. A damaged file is never deleted or rewritten.
//
// The file holds top-level buckets created by the migrations in
// migrate.go: meta (schema_version), settings, providers, conversations
// with a recency index (each header keeps what the conversation list shows —
// the title from the first person's message and the latest run's model —
// set at write time, so ConversationSummaries reads no message; conv_list.go),
// messages (one nested bucket per conversation, keyed
// by big-endian sequence number, so LastMessages and TailMessages read only
// the records they return with a cursor from the end), an index of messages still
// streaming, MCP server configurations (never a secret), their cached tool
// catalogs, the tools a person turned off per conversation, policy rules
// by tool identity (each with the tool definition it pins; schema 7 pinned
// the rules it found to the definitions then cached, policy_pin.go), and
// the append-only audit of policy decisions with an
// index by correlation ID, and the skill catalog (skills.go: file contents
// by sha256, stored once, and every version of every skill, installed with
// the definitions it imports in one transaction), definitions and profiles
// with every revision (revisions.go), run history (runs.go: one record per
// run with its frozen spec, its bounded events, listed newest first by a
// time-ordered ID), the schedule log with each profile's last tick
// (schedules.go), the Agent Workflows switch among the settings
// (switch.go), and a cache of what vouch learned about its prompts: token
// counts a model server gave (token_counts.go), where each
// conversation was last cut to fit a model's window (prompt_cuts.go),
// planned tool definitions (tool_plans.go) and each message's weight for
// the walk back to a window's reach (message_weights.go).
// Records are JSON. migrations is append-only: version v+1 is
// migrations[v] applied to version v in its own transaction, so a kill
// mid-way leaves the last completed version.
//
// Streaming replies go through a MessageWriter: Write only appends to
// memory, and one commit (one fsync) carries everything gathered once the
// oldest byte is 250 ms old or 4 KiB are waiting; Finish writes the final
// status. A message whose writer died with the process is still marked
// streaming in the file; the next Open marks it partial, so an interrupted
// reply never looks complete (SPEC A5, K3). Likewise a run still marked
// running at Open is recorded as failed, with a sentence saying vouch
// stopped before it ended.
//
// Secrets keeps credentials in the OS keyring only (SPEC K2): the Secret
// Service ("login" collection) when a session bus is advertised, else the
// kernel keyring (user scope), or an encrypted file under the state dir
// when VOUCH_KEYRING_BACKEND=file asks for it. Nothing secret is written to
// the database, logged, or put in an error message.
//
// # Concurrency
//
// A DB and its methods are safe for concurrent use. Every operation is one
// managed bbolt transaction (View or Update); values are copied out before
// the transaction ends, so callers own what they get. bbolt allows one
// writer at a time and readers alongside it: a slow reader never blocks a
// write, but writes queue behind each other, which is why streaming text is
// batched rather than committed per token.
//
// A MessageWriter is safe for concurrent use; it runs one goroutine from
// NewMessageWriter until Finish, which must be called exactly once.
//
// Secrets runs each keyring call on its own goroutine and waits for it at
// most until the earlier of the context's deadline and its timeout
// (default 3 s), then returns ErrKeyringTimeout. The abandoned call is not
// stopped: a timed-out Set may still land later.
//
// # Caveats
//
// Only one process may have the database open; `vouch doctor` and the
// command-line subcommands therefore fail with ErrLocked while the TUI
// runs, and say who holds it.
//
// Messages are append-only: MessageCount is the bucket's sequence, which
// would overcount once deletion exists.
//
// bbolt trusts its pages: it has no page checksums. Open turns unreadable
// meta pages (and panics while migrating) into ErrCorrupt, and every View
// and Update runs under a guard (damage.go) that turns a panic, or a
// memory fault on the mapping, into ErrCorrupt's sentence naming the file:
// damage inside a data page fails the operation that reads it, never the
// process, and the rest of the file stays usable. DeepCheck (for `vouch
// doctor --check`) walks every bucket, re-hashes every content-addressed
// file, decodes every record it knows the form of, and runs bbolt's page check, reporting each problem; Check runs
// only the page check. Every commit
// is fsynced, so a crash or kill loses nothing committed (SPEC K3); the
// SIGKILL test proves it for this file system.
//
// The kernel keyring lives in memory: secrets stored there are gone after a
// reboot. github.com/99designs/keyring connects to the D-Bus session bus in
// its package init, before any timeout applies; with no session bus
// address it may try dbus-launch.
//
// # Size
//
// The package is over the project's ~3,000-line guideline on purpose: one
// bbolt file with one migration chain is easier to keep crash-safe as one
// package; each bucket family has its own file, and nothing outside store
// sees a bucket.
package store
