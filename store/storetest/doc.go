// Package storetest provides helpers for tests of code that uses package
// store: a database in a temporary directory that closes itself, Secrets
// over an in-memory keyring, and what a test puts in the catalog the way
// vouch's commands would — a skill with a declared and an undeclared file
// (PutSkill), a role definition (RoleDefinition, PutDefinition) and a
// profile (PutProfile). Only tests import it.
package storetest
