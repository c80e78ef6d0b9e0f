// Package app owns the application: opening a session of vouch and the
// services both front ends use — the terminal interface (through the
// narrow interfaces package tui declares, wired in internal/tuiwire) and the
// command line.
//
// # What it owns
//
// An App is one session: the database of the state directory, the
// current conversation and its bbolt-backed transcript, the workspace the
// built-in tools read and write, the MCP service (server configuration in
// the database, secrets in the keyring, connections and catalogs in the
// mcpclient manager) and the Policy every run decides with (the stored
// rules frozen per run, the audit of every decision, SPEC D1, D6, D8). A
// State is the lighter opening a single command-line operation needs: the
// database, the keyring and the MCP servers, no conversation, no
// workspace (OpenState; WithDB opens the database alone; StateOf is the
// State of a session's App, for a command run through the session).
//
// No front end is handed the database. What the App and a State read and
// write of it alone — the rules, the run history and its views, the
// workflow switch and schedules, the installed skills, the settings —
// are methods of both (data.go, embedded in each), and the services that
// need more (Profiles, ServerSkills, the MCP service, ChatConfig's
// PolicyEditor and SkillCatalog) are handed out by them; the store's
// records a front end names are this package's (records.go).
//
// The transcript gives a run the conversation's tail by size (what the
// run's window can carry, at most 5 MiB of text or 20,000 messages; see
// agent.WindowedTranscript), its start aligned to a step so that requests
// extend each other (SPEC A6), kept between reads; the screen gets the
// last 500 messages (transcript_tail.go).
//
// The workflow services run on an App (SPEC H, J): Profiles checks and
// stores profiles and definitions (workflows.go); a ProfileRunner freezes
// and starts a profile run (profile_run.go, profile_skills.go,
// run_spec.go, run_blobs.go, run_prompt.go) and a RunRecorder keeps any
// run's history from its events (run_record.go, run_guard.go); the
// scheduler fires schedules while the interface runs and queues the calls
// of its background runs in the Inbox (scheduler.go, inbox.go); FollowRun
// follows a headless run (headless.go); the run history and schedule
// status are read in runs.go; AppsService hosts MCP App views
// (apps_host.go, apps_events.go). A front end hands in what only it has —
// a Resolver for the model server, an Approver, a RunOutput, the
// conversion of app events into its own — and converts the results.
//
// The chat services run on an App too: a Chat (chat.go) finds the model
// server, keeps the chosen model and starts the runs of the current
// conversation, kept in run history; RunHeadless and App.RunProfileHeadless
// run one task to its end for 'vouch run' (headless.go); a PolicyEditor
// serves the rule editor and Policy page (policy_editor.go); ServerSkills
// is the trust layer over the skills MCP servers serve (server_skills.go);
// App.SeedDemo fills the demo's throwaway state (demo_seed.go). Skill
// packages installed from a local path are the sub-package localskills,
// which needs only the database and imports nothing of this package.
//
// What a front end shows is computed here too, and only converted
// there: the profile editor's summaries, views, input and selectable tools
// and the conversation's tool list (profile_views.go), the run history's
// pages and one run in full (run_views.go), the changes 'vouch profile
// create/edit' make (profile_changes.go), the tools plan of 'vouch tools
// plan' (tools_plan.go), the checks of 'vouch doctor' (doctor.go) and the
// server rows of 'vouch server list' (server_rows.go). Strings from a
// catalog, a model or the person are neutralised where the view is made.
//
// # Size
//
// The package is over the ~3,000-line guideline (about 8,200 non-test
// lines). The workflow services (profiles, profile runs and their frozen
// spec, the run recorder, the scheduler and inbox, and the views of
// profiles and run history: about 3,000 lines) are the next seam, but
// they share *Policy, RunRecorder and the Error kinds with the chat and
// the session: a sub-package the App owns needs those in a leaf package
// first. Until then they stay here, each in its own file.
//
// The domain packages (agent, mcpclient, skills, policy, workflow) do not
// import store; this package adapts each of them to it (the transcript,
// the catalog cache, the keyring secrets, the policy rules and records).
//
// # Errors
//
// Services return data and errors; they never exit, print or prompt. An
// error that needs a particular answer from the caller is an *Error with
// a Kind: Usage, Rejected, ApprovalNeeded, Unavailable, or plain Failure.
// cmd/vouch maps the kinds to the exit codes of SPEC M and prints the one
// sentence; the terminal interface shows it in its status line. Every
// error sentence says what to do.
//
// # Lifecycle
//
// Open (or OpenState) opens everything and returns nothing half-open: a
// failure closes what was opened. Close closes, in order, the MCP Apps
// host, the MCP manager, what AddCloser added (the demo's MCP server), the
// workspace and the database, and reports the audit and run history
// writes that failed during the session: those never stop a run, so the
// session says so once, at the end.
//
// # Concurrency
//
// An App is safe for concurrent use by the terminal interface's commands,
// the runs it starts and the scheduler: the current conversation is
// guarded, the Policy is safe for concurrent use, the MCP manager and the
// store are. The services run on the caller's goroutine and may block on
// I/O (database, keyring, network); the terminal interface calls them
// only from inside a tea.Cmd.
//
// # Imports
//
// This package must not import tui or any tui/... package, nor a *test
// package: the terminal interface depends on it only through the
// interfaces it declares itself, and internal/tuiwire adapts the data between
// the two.
package app
