// Package scripted owns a scripted OpenAI-compatible model server on
// loopback: the model behind `vouch demo` and, through agent/agenttest,
// behind the tests of the run loop. It must not import any vouch package
// nor any test package (net/http/httptest included: its flags would leak
// into the binary).
//
// # Basics
//
// New starts a Server that answers POST /v1/chat/completions from a Script:
// a list of Turns, each a sequence of Steps (text and reasoning deltas, tool
// calls with chosen indexes and ids, usage) or an HTTP error answer (Status
// and Body). A Turn may carry a Match predicate (LastUserContains,
// AfterToolResult, Offers, All), may Repeat, and may compute its steps from
// the request (Respond). Every request is recorded (Requests).
//
// # Quirks of real servers
//
// WithFlavor adds the native endpoints and habits of llama.cpp (/props,
// /slots, /tokenize, /apply-template, timings, HTTP 400 over the window),
// LM Studio (/api/v0/models), Ollama 0.17.4 (/api/version, /api/show,
// /api/ps, role in every delta, per-call indexes, silent truncation with
// HTTP 200) and vLLM (max_model_len, owned_by "vllm"); see Flavor. Every
// flavor stops at the request's max_tokens with finish "length". Steps reproduce transport quirks:
// KeepAlive comment lines, EmptyChoices chunks, an ErrorEvent mid-stream,
// Raw lines, Drop (the connection is hijacked and closed) and Wait (the
// stream blocks on a gate channel). agenttest adds the whole-turn failures
// tests need (HTTPError, ContextOverflow, NotSSE).
//
// # Pace and shutdown
//
// Turn.Delay and WithChunkDelay give the demo a human pace; tests leave
// them zero and synchronise with Wait gates. Close unblocks every waiting
// stream and every pause, then shuts down. A Server is safe for concurrent
// use.
package scripted
