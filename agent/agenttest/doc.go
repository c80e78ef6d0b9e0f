// Package agenttest is the tests' face of the scripted OpenAI-compatible
// model server (vouch/internal/demo/scripted), in the manner of
// net/http/httptest: New starts one on loopback or fails the test binary,
// and the whole-turn failures tests need (HTTPError, ContextOverflow,
// NotSSE) are added here. Only _test.go files may import it; the product
// binary imports no test double (internal/archtest checks it).
//
// # Basics
//
// A Script is a list of Turns, each a sequence of Steps (text and reasoning
// deltas, tool calls with chosen indexes and ids, usage) or an HTTP error.
// A Turn may carry a Match predicate (LastUserContains, AfterToolResult,
// Offers, All) and may Repeat. Every request is recorded (Requests) for
// assertions. Construction needs no *testing.T.
//
//	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
//		agenttest.Reply("Hello there."),
//	}}, agenttest.WithFlavor(agenttest.LlamaCpp))
//	defer srv.Close()
//	client := agent.NewClient(srv.URL(), "", nil)
//
// # Why its types are aliases
//
// Script, Turn, Step, Request, Server and the rest are aliases of
// scripted's, and the step and option constructors forward to it. That is
// the design, not a leftover: the demo (internal/demo) and the tests must
// run one server implementation, the product binary must not link a test
// package, and some forty test files across agent, internal/app and
// cmd/vouch write scripts in this package's names. An alias keeps a test's
// script and the demo's script the same values, with no conversion and no
// second copy of the server.
//
// # Quirks of real servers
//
// WithFlavor adds the native endpoints and habits of llama.cpp (/props,
// /slots, /tokenize, /apply-template, timings with prompt_n and cache_n,
// HTTP 400 exceed_context_size_error over the window, finish "length" when
// the window fills), LM Studio (/api/v0/models), Ollama 0.17.4 (/api/version,
// /api/show, /api/ps, name:tag ids, role in every delta, each tool call
// whole at its own index, a prompt over the window answered with HTTP 200
// and a usage count of what it kept, no stop at the window) and vLLM
// (max_model_len, owned_by "vllm"). Every flavor stops a reply at the
// request's max_tokens with finish "length", and counts prompts the way a
// small byte-level BPE vocabulary does (digits one token each, non-ASCII
// two, tools included). WithReusedIndex writes every call at index 0 (older
// Ollama). Withheld counts completion tokens never streamed (Ollama drops
// a tool call it cannot parse); KVCacheFull and FormatError are
// llama.cpp's mid-stream error events. Steps reproduce transport quirks:
// KeepAlive comment lines, EmptyChoices chunks, an ErrorEvent mid-stream,
// Raw garbage, Drop (the connection is hijacked and closed), and Wait (the
// stream blocks on a gate channel: a slow first token, or a point at which a
// test cancels). ContextOverflow, HTTPError and NotSSE build whole-turn
// failures.
//
// # Synchronisation
//
// Tests never sleep: they block a stream with Wait and a channel they close
// when ready. Turn.Delay and WithChunkDelay exist for the demo's human
// pace. Close unblocks every waiting stream before shutting down.
package agenttest
