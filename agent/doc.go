// Package agent owns the agent loop: the OpenAI-compatible model client
// (probing local servers, listing models, discovering the effective context
// window, counting tokens), prompt assembly, streaming chat completions with
// tool calls, tool dispatch through frozen identities, loop limits and
// budgets, cancellation, the events a run publishes, the conversation
// service the TUI talks to (Chat), the policy gate every tool call passes,
// and the built-in workspace tools.
//
// The tools it runs come through package tool's contract (tool.Tool,
// tool.Def, tool.Result, identities, wire names, the correlation ID); this
// package imports no tool provider and knows nothing of MCP.
//
// # Basics
//
// NewClient talks to one server (for example llama.cpp's llama-server at
// http://127.0.0.1:8080/v1). Probe looks for the usual local servers
// (DefaultEndpoints) and tells them apart; Client.ContextWindow asks the
// server for the window it actually runs with (SPEC A3). Nothing in this
// package contacts a host other than the base URL it was given.
//
// A run is started with Client.Run and a RunSpec, which the run copies and
// freezes before the first token: model, context window, system prompt,
// history, tools (their wire names, SPEC C2, are fixed once and published in
// RunStarted) and Limits. It publishes Events on a channel the caller owns:
// RunStarted first, Done last. Every event is must-deliver: the run blocks
// (or stops, when its context is cancelled) rather than drop one. TextDelta
// events carry only the new text; a consumer that wants fewer updates
// coalesces them itself (the TUI does so at about 30 per second) and never
// drops text.
//
// Chat is the conversation-level service behind the TUI's Backend.Send: it
// stores the person's message in a Transcript, resolves the context window
// (server, else profile, else DefaultContextWindow) and starts a run in a
// goroutine, returning the event channel at once; the channel is closed
// after Done.
//
// # Wiring a store
//
// The store package implements Transcript and Draft over bbolt.
// Transcript.Append stores one complete message (the person's message, tool
// results). Transcript.Begin creates a record marked Partial as soon as an
// answer starts streaming; Draft.Write buffers the deltas and flushes them
// in batches (one transaction per flush, never per token) without blocking
// the run; Draft.Finish writes the final message, complete or Partial,
// replacing the record. A crash therefore leaves a partial message, never a
// complete-looking one. Tool messages carry the call's CorrelationID in
// ToolCallID.
//
// # The gate and the workspace tools
//
// Before any handler runs, a call's wire name maps back to its identity
// through the run's frozen map (an unknown name is an error to the model,
// never a guess; a name that would widen the run's own boundaries — policy,
// schedules, memory, MCP connections, permissions — gets BoundaryRefusal,
// and one that asks to install a skill, package or plugin gets
// InstallRefusal, which points at the person's local import flow, SPEC G7),
// and the run's frozen policy decides with the exact arguments: allow, ask
// (an ApprovalRequested event, with a Preview when the tool is a Previewer)
// or block. Every decision is audited. Workspace.Tools are the read-only
// fs_list, fs_read and fs_search; Workspace.WriteTools are fs_write and
// fs_edit, which local policy always asks for and which preview a unified
// diff. All are confined to the workspace root by os.Root.
//
// # Tool budget and deferral
//
// A run plans its tools once, at its start, with PlanTools (SPEC F1–F3).
// Every definition is capped first: CapTool cuts the description to
// MaxToolDescription bytes and CapSchema drops the schema's annotations
// ($schema, title, examples, …) and cuts nested descriptions, keeping every
// keyword that validates, so the capped schema accepts exactly what the
// server's full schema accepts. vouch checks only that arguments are one
// JSON object; the server validates them against its own schema. Each
// capped entry is counted with a count the server's tokenizer gave before
// (kept in memory and in the CountStore, countstore.go), else
// EstimateTokens: planning asks the server nothing.
//
// When everything fits RunSpec.ToolBudget × the window (DefaultToolBudget,
// 25%) every tool is sent in full. Otherwise tools that do not ask the
// person are deferred, largest first, behind three meta-tools —
// tool_search (SearchIndex: exact name first, then BM25 over name words,
// title, server label, parameter names and description), tool_inspect (the
// capped schema) and tool_invoke — and the system prompt gets a short
// listing (per server its label and count, then names as room allows).
// tool_invoke takes only the exact wire name of one of the run's deferred
// tools, and sends exactly its inner arguments through the same policy
// gate, approval request and audit as an inline call, under that tool's
// identity; the meta-tools themselves never consult the policy (they read
// only the frozen catalog) but count against MaxToolCalls. Tools that ask
// stay inline (SPEC F3): when they do not fit, the run ends before any
// request with an ErrToolBudget sentence naming them and their cost.
// RunStarted.Tools carries the plan's figures.
//
// # Workflow runs (profiles)
//
// Client.RunWorkflow runs a profile's frozen definition (SPEC H2, H4, H5,
// D6). The caller — `vouch run --profile`, the scheduler — resolves the
// profile into a RunSpec whose Tools are exactly the allowlist and whose
// Decide is the policy snapshot, and a WorkflowSpec: the profile and
// definition revisions, the enabled skills in the profile's order as
// tool.FrozenSkill values (files by sha256, undeclared files absent) and a
// tool.SkillBlobs to read them. Both are copied deeply before the first event,
// so editing the profile mid-run changes nothing in the run. AllowedTools
// picks the allowlisted tools from what is available (reporting the
// missing ones); RunSpec.Temperature carries the profile's temperature.
//
// Events: WorkflowStarted first (the frozen revisions, skills, allowlist
// and the skill listing with its ListingLevel), Done last; in between each
// part of the definition — the role, each flow step, the lead, each helper
// — is framed by PartStarted (carrying that part's RunStarted) and
// PartFinished (its reason and final answer). A helper's events nest
// inside the lead's delegate call. ApprovalRequested from any part reaches
// the caller exactly as in a chat run. Only the run's own conversation —
// the role, the last flow step, the lead — is written to RunSpec.Transcript
// and returned in Done.Messages; the other parts live in the events.
//
// Every part's system prompt is, in order (SPEC H4): RunSpec.SystemPrompt
// (app safety and tool policy, then the deferred-tools listing if any),
// the part's definition section (role instructions; step i of n; the lead
// with its helpers; a helper), then the attributed skill listing
// ("skill <name> (from <origin>): <description>") in the profile's order;
// the task is the user message. The listing may take SkillListingShare
// (10%) of the window, measured with the run's token counter, and
// SkillListing degrades it deterministically: full (descriptions and
// file names), trimmed (first sentence, 80 bytes), names only, and last
// the names that fit with a count of the rest.
//
// Parts: a Role uses the whole allowlist (PreferredTools are named in the
// prompt, never granted). Flow steps run in order, each with its Tools ∩
// the allowlist, the first on the person's conversation and each next one
// on the task plus the previous answer. The Subagents lead has its Tools
// ∩ the allowlist and delegate {helper, task}; a helper runs inside that
// call with its own Tools ∩ the allowlist and no delegate (depth one), and
// its final answer is the result. All parts share one model, window,
// Decide, Audit and one set of Limits: turns, tool calls and result bytes
// of every part count together.
//
// skill_load {name} returns an enabled skill's SKILL.md, skill_read {name,
// path} one of its declared files; both tagged with the skill's name,
// origin and digest, and both exist only when the run has skills. A path
// is cleaned and looked up among the declared files only: anything else is
// "not found", and the refusal lists the declared files. Content is
// re-hashed against the frozen sha256 and size and must be UTF-8 text, or
// it is not used. One call returns at most SkillBytesPerCall
// (DefaultSkillBytesPerCall, 16 KiB; longer text says how to continue with
// offset) and all calls together SkillBytesPerRun (DefaultSkillBytesPerRun,
// 64 KiB); past it a call is refused with an error result and the run goes
// on. These tools, and delegate, are vouch's own: they never consult the
// policy, are never in a selector, count against MaxToolCalls, and the
// skill tools are audited as allowed by "vouch". Nothing a skill says
// changes the run: the wire map, the tools offered and Decide are frozen.
//
// # Errors
//
// A run that fails ends with Done{Reason: StopError} or, for Limits,
// StopLimit; Done.Err is one sentence that says what to do and wraps one of
// the sentinel errors (ErrUnreachable, ErrTimeout, ErrServer, ErrBadStream,
// ErrDropped, ErrContextOverflow, ErrLimit, ErrPersist, tool.ErrInvalid,
// ErrToolBudget, ErrWorkflow, panics.ErrInternal). What was persisted before the failure stays.
//
// A panic never leaves a run: panics.Recover, deferred in every goroutine that
// runs model, tool or server code (the run's own, each tool call's, a
// Chat's), turns it into a *panics.InternalError — "the run failed: an internal
// error in <where>; the stack is in the run's events — please report it"
// — which ends the run with StopError and carries the panic value and the
// stack for the caller's history (Report). A tool whose Call panics, a
// panic while the answer streams or in a preview, and a helper that failed
// so all end the whole run this way; the panicking call gets an error
// result, so the conversation stays well-formed. Callers that run their
// own goroutines around a run (the CLI, the scheduler, the TUI's Cmds)
// use the same panics.Recover. Every field of RunSpec a caller may leave empty
// is filled once, by one defaults function, before any part of a run
// (a workflow's helpers and steps included) reads it.
//
// Problems with a single tool call
// — an unknown wire name, arguments that are not a JSON object, a handler
// error — are not run errors: they go back to the model as an error tool
// result, and nothing is executed on a guess (SPEC A2, C2).
//
// # Concurrency
//
// Client, Chat, MemoryTranscript and Workspace are safe for concurrent use.
// A run owns its goroutine; it calls out only through the events channel,
// its Transcript and its Tools. It publishes every event itself, including
// RequestSent (just before each request), CallAllowed (from its gate) and
// ToolProgress (a forwarder per running call that holds only the latest
// report, never blocks the tool and never outlives the call; progress.go)
// and a running call's questions to the person, InputRequested, each
// followed by the InputNoted of what became of it before the call's
// ToolCallFinished (a tool.Asker on the call's context; ask.go, SPEC
// B12): a front end adds nothing to its channel. Cancelling the run's context stops the
// stream and pending tool calls; whatever was streamed is persisted marked
// Partial, never as complete, and calls that did not finish get a
// "cancelled" error result (SPEC A5). Transcript writes use a context that
// outlives the cancellation, bounded by a timeout. After cancellation the
// run still offers its final Done for a few seconds, so a consumer that
// keeps reading until the channel closes always sees it.
//
// # Caveats
//
//   - go-openai v1.43.0's stream reader treats every non-"data:" line as a
//     possible error fragment, buffers it for the whole stream and gives up
//     after 300 in a row, and cannot tell a dropped connection from a
//     finished answer. The client therefore filters the body first: comment
//     and other SSE field lines are dropped, error objects and llama.cpp's
//     "error:" lines become errors, anything that is not SSE is ErrBadStream
//     and an end of body before "data: [DONE]" is ErrDropped (unless a
//     finish_reason already arrived).
//   - Token counts are exact only where the server renders and tokenizes
//     (llama.cpp): the prompt a request sends is rendered with
//     /apply-template and counted with one /tokenize, at most two round
//     trips per request, bounded together by DefaultCountBound (1.5 s),
//     after which the estimate is used and Usage.CountNote says so
//     (count.go). Texts counted with the estimate are counted by the server
//     after the run, in the background, and kept (countstore.go), so the
//     plan and the fitting of a long conversation ask nothing; only the
//     last window's worth of a long conversation is looked at
//     (prompt_fit.go). The tool cost RunStarted reports is, on llama.cpp,
//     the template's rendering of the tools, measured once in the
//     background (tool_render.go). A conversation that outgrows the
//     window is cut in large steps and the cut reused while what follows
//     fits, so requests extend each other byte for byte (history_fit.go,
//     SPEC A6). vouch's own file tools that do not fit a small window are
//     left out (Usage.ToolsNote) rather than refusing the run
//     (smallwindow.go, SPEC F5). The rate without server timings needs a
//     span of 100 ms (rate.go). Elsewhere EstimateTokens
//     applies per-rune rules (estimate.go) calibrated on Ollama so as not
//     to count under on English, code, CJK, digits or emoji. After each
//     turn the server's usage.prompt_tokens is kept per model: a request
//     that extends that prompt is counted as that number plus the estimate
//     of what was added (calibrate.go). Chat template overhead is an
//     estimate (6 tokens per message, about 100 for a tool section). A
//     usage count below the prompt's lowest possible count, or equal to
//     the window, means the server cut the prompt (Ollama does, with HTTP
//     200): Usage.PromptCut says so and later requests of the model fit
//     what it kept. Requests carry max_tokens, the window's free space
//     (bounded by RunSpec.MaxTokens), and keep a quarter of a window up to
//     4,096 tokens free for the answer (an eighth of a larger one, at most
//     1,024); a reply that stops for length is Usage.CutOff and
//     Done.CutOff (SPEC A7).
//   - Ollama serves a model at its own num_ctx, not at the model's maximum:
//     ContextWindow prefers /api/ps (a loaded model), then num_ctx from
//     /api/show capped at the trained context_length (Ollama runs no more),
//     else caps the model's context_length at DefaultContextWindow. LM Studio's max_context_length, used when a
//     model is not loaded, may exceed what a just-in-time load allocates.
//   - Interrupted answers are sent back to the model with InterruptedNote
//     appended and without their tool calls; calls without a stored result
//     are answered with a note; results that answer no call are left out.
//   - A tool handler that ignores its context is abandoned on cancel, not
//     stopped; its result is discarded.
//   - Tool calls of one answer run one after another, in order.
//   - In a workflow run a helper's TextDelta events arrive inside the
//     lead's delegate call, framed by the helper's PartStarted and
//     PartFinished; a consumer that shows one answer keeps them apart by
//     those frames. skill_load and skill_read read through tool.SkillBlobs
//     synchronously: a read that hangs is not interrupted by cancel.
//
// # Size
//
// The package is over the project's ~3,000-line guideline on purpose for
// now: the run loop, the model client, tool planning and deferral, the
// built-in workspace tools and workflows share the RunSpec, the Gate and
// the event stream, and splitting them before the model-server work of
// this round settles would mean exporting those internals. The seams when
// it is split: the built-in workspace tools (builtin_fs.go,
// builtin_write.go, diff.go) and the model client (client.go, stream.go,
// sse.go, probe.go, window.go).
package agent
