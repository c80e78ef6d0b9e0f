// Package clitext is the command line's text machinery, shared by every
// command of cmd/vouch: the Printer that keeps the first write error so a
// listing that cannot be written fails (SPEC M), aligned tables whose
// fields are neutralised, WriteJSON with every code point the interface
// neutralises escaped (SPEC D3), help wrapped at Width columns, the nearest
// name of a suggestion, counts with their plural, and Align and Write
// for text composed beforehand (package cliview composes each command's).
// It knows no command and no application.
package clitext
