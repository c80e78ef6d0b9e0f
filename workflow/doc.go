// Package workflow owns the person's agent definitions and profiles as data:
// Role, Flow Agent and Subagents definitions (SPEC H2), Agent Profiles that
// tie a definition to model defaults, a tool allowlist, a workspace scope,
// ordered enabled skills and an optional schedule, their strict
// validation, and schedule arithmetic (ParseSchedule: intervals and
// five-field cron, SPEC H6). It has no I/O: the store keeps the encoded values, the agent
// package runs them, the skills package validates the definitions a package
// carries with Parse.
package workflow
