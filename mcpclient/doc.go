// Package mcpclient owns connections to remote MCP servers over Streamable
// HTTP: the tool catalog cache and its background warming, stable tool
// identities and per-execution wire names, result sanitizing, session
// recovery, skills served over MCP and MCP Apps resources.
//
// # Concurrency
//
// Submitting a message never waits on an MCP server: callers read the cached
// catalog, and warming runs in the background with bounded concurrency and
// per-server timeouts.
package mcpclient
