package servers

// Activated reports whether the message says a server was just switched
// on, without error; the root then checks whether its tools fit the
// model's budget (issue 18 item 22).
func (m ActiveMsg) Activated() bool { return m.active && m.err == nil }

// Name is the server's name as the list showed it.
func (m ActiveMsg) Name() string { return m.name }
