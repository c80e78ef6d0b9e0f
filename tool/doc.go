// Package tool owns the contract between tool providers and the run loop:
// a tool's definition (Def), its result (Result), the Tool interface, the
// identity grammar (SPEC C1) and the one implementation of wire names
// (SPEC C2), the correlation ID a run hands every call (SPEC B7, H7), and
// the frozen form of a skill a provider hands a run (FrozenSkill,
// SkillBlobs; SPEC H4, I2).
//
// # Who imports it
//
// The loop (package agent) and the providers (package mcpclient, the
// built-in tools in agent, the application layer) meet here, so neither
// imports the other: mcpclient does not import agent, and agent knows
// nothing of MCP beyond the identity shapes defined in this package. It
// imports only the standard library; it must not import any vouch package.
//
// # Identities
//
// A built-in tool's identity is "builtin:<name>"; an MCP tool's is
// "mcp:<serverUUID>:<toolName>" (built by mcpclient.Identity). Persistence,
// policy and selection key on identities; the model only ever sees wire
// names, frozen per execution by WireNames.
//
// # Concurrency
//
// Everything here is immutable data or a pure function. A Tool must be safe
// to call from the run's goroutine while other goroutines hold it, and must
// honour its context.
package tool
