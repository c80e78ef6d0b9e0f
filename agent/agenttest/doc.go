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
// /slots, /tokenize, timings in the last chunk), LM Studio (/api/v0/models),
// Ollama (/api/version, /api/show, /api/ps, every tool call at index 0) and
// vLLM (max_model_len, owned_by "vllm"). Steps reproduce transport quirks:
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
