package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"vouch/internal/sessiond"
)

// resize makes the tmux window cols x rows (the terminal vouch runs in
// gets SIGWINCH).
func (s *tmuxSession) resize(cols, rows int) {
	s.t.Helper()
	s.run("resize-window", "-t", s.name, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows))
}

// statusMark is in the interface's status line, once per frame.
const statusMark = "OpenAI-compatible"

// wholeProblem says what is wrong with pane, a window of win showing the
// interface drawn at frame, or "" when the frame is whole: nothing beyond
// the frame's columns, nothing below its rows but the window's own bottom
// line, one status line, one input rule, want in it, and when the
// approval pane is in front, all of it between one top and one bottom
// border.
func wholeProblem(pane string, win, frame sessiond.Size, approval bool, want ...string) string {
	lines := strings.Split(strings.TrimSuffix(pane, "\n"), "\n")
	if len(lines) > win.Rows {
		return fmt.Sprintf("%d lines in a window of %d rows", len(lines), win.Rows)
	}
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		switch {
		case i < frame.Rows && ansi.StringWidth(l) > frame.Cols:
			return fmt.Sprintf("line %d is %d cells wide, beyond the frame's %d: %q", i+1, ansi.StringWidth(l), frame.Cols, l)
		case i >= frame.Rows && i < win.Rows-1 && l != "":
			return fmt.Sprintf("line %d, below the frame's %d rows, shows %q", i+1, frame.Rows, l)
		}
	}
	if n := strings.Count(pane, statusMark); n != 1 {
		return fmt.Sprintf("%d status lines", n)
	}
	if n := strings.Count(pane, "› Ask anything"); n != 1 {
		return fmt.Sprintf("%d input lines", n)
	}
	if approval {
		top, bottom := strings.Count(pane, "╭"), strings.Count(pane, "╰")
		if top != 1 || bottom != 1 || strings.Count(pane, approvalTitle) != 1 || !strings.Contains(pane, "Allow once") {
			return fmt.Sprintf("the approval pane is not whole: %d top and %d bottom borders", top, bottom)
		}
	}
	for _, w := range want {
		if !strings.Contains(pane, w) {
			return fmt.Sprintf("%q is missing", w)
		}
	}
	return ""
}

// assertWhole waits until the window shows the frame whole, and says what
// was still wrong when it does not within e2eTimeout.
func (s *tmuxSession) assertWhole(what string, win, frame sessiond.Size, approval bool, want ...string) {
	s.t.Helper()
	deadline := time.Now().Add(e2eTimeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		pane := s.capture()
		why := wholeProblem(pane, win, frame, approval, want...)
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: the %dx%d window does not show a whole %dx%d frame (%s):\n%s", what, win.Cols, win.Rows, frame.Cols, frame.Rows, why, pane)
		}
		<-tick.C
	}
}

// TestE2ESessionWindowsOfTwoSizes (SPEC K4; issue 23 item 2): windows of
// 120x40 and 80x24 on one session, in both orders and after resizes: the
// interface is drawn at the smaller size, and each window shows the
// transcript and the approval pane whole — no wrapped or repeated status
// line, nothing left of an earlier frame beyond or below it; the viewer's
// line says whose size it is. `vouch sessions` and `doctor` count the
// chat's approval waiting.
func TestE2ESessionWindowsOfTwoSizes(t *testing.T) {
	big, small := sessiond.Size{Cols: 120, Rows: 40}, sessiond.Size{Cols: 80, Rows: 24}
	for _, bigFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("120x40 first %v", bigFirst), func(t *testing.T) {
			bin := buildVouch(t)
			model := writingModel(t)
			state, workspace := shortState(t), t.TempDir()
			stopSessionAtEnd(t, state)
			cmd := sessionVouch(bin, state, workspace, model)

			firstSize, secondSize := big, small
			if !bigFirst {
				firstSize, secondSize = small, big
			}
			first := newTmux(t, firstSize.Cols, firstSize.Rows, cmd+"; echo exit=$?; sleep 60")
			first.waitText("Ask anything")
			first.typeText("write the notes")
			first.keys("Enter")
			first.waitText(approvalTitle)
			second := newTmux(t, secondSize.Cols, secondSize.Rows, cmd+"; echo exit=$?; sleep 60")
			second.waitText("viewing —")
			for _, w := range []struct {
				s   *tmuxSession
				win sessiond.Size
			}{{first, firstSize}, {second, secondSize}} {
				w.s.assertWhole("with the pane", w.win, small, true)
			}
			if bigFirst {
				second.waitText("size: this window's")
				first.waitText("drawn at 80x24, a smaller window's size")
			} else {
				second.waitText("size: 80x24, a smaller window's")
			}
			out, _ := cli(t, state, "", exitOK, "sessions")
			if !strings.Contains(out, "approvals waiting 1") {
				t.Fatalf("vouch sessions with the chat's approval waiting:\n%s", out)
			}
			out, errOut, _ := vouchExec(t, state, "--model-url", model.URL(), "doctor")
			if !strings.Contains(out+errOut, "1 approval(s) waiting") {
				t.Fatalf("vouch doctor with the chat's approval waiting:\n%s%s", out, errOut)
			}

			// The smaller window grows to 100x30, then shrinks back, with the
			// pane in front: the frame follows it, and nothing of the larger
			// frame is left in the larger window.
			smallWin, bigWin := first, second
			if bigFirst {
				smallWin, bigWin = second, first
			}
			both := func(what string, smallSize, frame sessiond.Size, approval bool, want ...string) {
				t.Helper()
				smallWin.assertWhole(what, smallSize, frame, approval, want...)
				bigWin.assertWhole(what, big, frame, approval, want...)
			}
			mid := sessiond.Size{Cols: 100, Rows: 30}
			smallWin.resize(mid.Cols, mid.Rows)
			both("after growing", mid, mid, true)
			smallWin.resize(small.Cols, small.Rows)
			both("after shrinking", small, small, true)

			// The viewer takes the keyboard over; the holder answers.
			second.keys("C-t")
			first.waitText("viewing —")
			both("after the take-over", small, small, true)
			// ctrl+t took the keyboard for the message, not for the pane
			// (SPEC D7): the pane waits for tab.
			second.waitText("tab to answer")
			second.keys("Tab")
			second.answerPane("a")
			transcript := []string{"write the notes", "Written."}
			both("the answer", small, small, false, transcript...)

			// The smaller window goes: the other is drawn at its own size.
			if smallWin == first { // a viewer now: it takes the keyboard to detach
				smallWin.keys("C-t")
				smallWin.waitFor("the keyboard", func(p string) bool { return !strings.Contains(p, "viewing") })
			}
			smallWin.keys(`C-\`)
			smallWin.waitText("exit=0")
			bigWin.assertWhole("alone again", big, big, false, transcript...)
		})
	}
}
