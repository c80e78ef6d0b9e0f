// Package lock owns vouch's lockfile (SPEC N1–N3): the model of what one
// machine trusts — MCP servers (never a secret), policy rules with their
// constraints and pinned definition digests, installed skills with their
// file digests, approved server skills and profiles — its canonical TOML
// form, the strict parser of that form, the drift between a machine and a
// lock, and the tightness test a managed lock enforces.
//
// The package is pure: it reads and writes bytes and compares values. The
// application (internal/app) builds a Lock from the database, applies one
// and hooks the managed checks into the places that change trust.
//
// Tools are named by server name, not by the server's identity on one
// machine: the same server added on two machines has two identities, and a
// lock is for a fleet.
package lock
