// Package store owns vouch's persistent state: one bbolt file with a schema
// version and forward migrations, and secrets in the OS keyring.
package store
