// Package panics owns the one recover of the program: Recover, deferred
// directly in every goroutine that runs model, tool or server code, turns a
// panic into an *InternalError — one sentence for the person, the panic
// value and a bounded stack for the record — handed to a report function
// that ends what was running as failed (a run's Done, a server's error
// status). The process goes on (SPEC H7).
//
// The run loop (agent), the MCP client (mcpclient) and the application
// layer all use it, so it sits below them: it imports only the standard
// library and must not import any vouch package.
package panics
