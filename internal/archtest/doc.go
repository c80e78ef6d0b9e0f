// Package archtest owns the module's import lattice: an allow-list, in the
// manner of Go's own src/go/build/deps_test.go, that gives every package
// of the module one line naming exactly what it may import of the module
// (lattice_test.go), and the boundaries no line may cross — the interface
// reaches no storage, HTTP or keyring; the domain knows no store; the loop
// knows no MCP; no room of the interface imports a sibling; the product
// links no test package.
//
// It has no code of its own. Its tests read the module's graph with one
// `go list -e -deps ./...` and run one checker over it (check_test.go): a
// package without a line, an import its line does not draw, a line whose
// package is gone or an import across a boundary fails `go test
// ./internal/archtest/` with one sentence naming the package, the import
// and what to do. The same checker runs over synthetic graphs with each
// forbidden edge planted (plant_test.go), and the figure of the lattice in
// docs/ARCHITECTURE.md is drawn from the table (render_test.go; `go test
// ./internal/archtest/ -update` redraws it).
//
// archtest must not be imported by anything: it is a test, not a library.
package archtest
