// Package agenttest provides a scripted OpenAI-compatible model server on
// loopback, for tests of the agent package and for `vouch demo`, in the
// manner of net/http/httptest.
//
// # Basics
//
// New starts a Server that answers POST /v1/chat/completions from a Script:
// a list of Turns, each a sequence of Steps (text and reasoning deltas, tool
// calls with chosen indexes and ids, usage) or an HTTP error. A Turn may
// carry a Match predicate (LastUserContains, AfterToolResult, Offers, All)
// and may Repeat; the demo's DemoScript is built that way. Every request is
// recorded (Requests) for assertions. Construction needs no *testing.T.
//
//	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
//		agenttest.Reply("Hello there."),
//	}}, agenttest.WithFlavor(agenttest.LlamaCpp))
//	defer srv.Close()
//	client := agent.NewClient(srv.URL(), "", nil)
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
