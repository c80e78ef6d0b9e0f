// Package archtest owns the tests of the module's import rules: who may
// import whom, as docs/ARCHITECTURE.md draws it. It has no code of its
// own; its tests ask the go command for the module's import graph, so a
// forbidden import fails `go test ./...` wherever it appears.
//
// The rules of the interface's own packages (no tui package imports
// storage, HTTP or a keyring; no pane imports another) are tested beside
// them, in tui/imports_test.go.
//
// archtest must not be imported by anything: it is a test, not a library.
package archtest
