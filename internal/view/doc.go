// Package view owns the plain view types the application (internal/app)
// returns and the interface's rooms (tui/...) render: one type for both
// sides, never a twin per side kept alike by conversions (issue 23). It
// is a leaf: data only, no behaviour, no I/O; both sides name these types
// through aliases where they had their own name.
package view
