package sessiond

import (
	"fmt"
	"strings"
	"testing"
)

// untilRedrawn waits until c's output after mark holds a screen clear
// (every terminal drawn from scratch) and then want.
func (rc *rawClient) untilRedrawn(mark int, want string) {
	rc.t.Helper()
	rc.until(fmt.Sprintf("a redraw with %q", want), func(rc *rawClient) bool {
		after := rc.out.String()[mark:]
		i := strings.Index(after, "\x1b[2J")
		return i >= 0 && strings.Contains(after[i:], want)
	})
}

// TestFrameIsTheSmallest (SPEC K4; issue 23 item 2): the interface is
// drawn at the smallest attached terminal's size, per dimension (tmux's
// window-size smallest); each attach, resize and leave redraws every
// terminal from scratch, and every client learns the frame's size.
func TestFrameIsTheSmallest(t *testing.T) {
	ts := startServer(t, nil)
	a := dialTerminal(t, ts.dir, 120, 40)
	a.untilOutput("size[120x40]")

	var b *rawClient
	step := func(what string, do func(), want Size) {
		t.Helper()
		ma, mb := a.out.Len(), 0
		if b != nil {
			mb = b.out.Len()
		}
		do()
		sz := fmt.Sprintf("size[%dx%d]", want.Cols, want.Rows)
		a.untilRedrawn(ma, sz)
		a.until(what+": a's status", func(rc *rawClient) bool { return rc.status.Cols == want.Cols && rc.status.Rows == want.Rows })
		if b != nil && !b.closed {
			b.untilRedrawn(mb, sz)
			b.until(what+": b's status", func(rc *rawClient) bool { return rc.status.Cols == want.Cols && rc.status.Rows == want.Rows })
		}
	}
	step("b attaches smaller", func() { b = dialTerminal(t, ts.dir, 80, 24) }, Size{80, 24})
	step("b grows", func() { b.send(KindResize, Size{Cols: 100, Rows: 30}) }, Size{100, 30})
	step("a narrows", func() { a.send(KindResize, Size{Cols: 90, Rows: 50}) }, Size{90, 30})
	step("b takes over", func() { b.send(KindTakeOver, nil) }, Size{90, 30})
	step("b leaves", func() { _ = b.conn.Close(); b.closed = true }, Size{90, 50})
}
