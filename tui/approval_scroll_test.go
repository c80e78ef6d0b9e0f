package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
)

// longWrite is a built-in write whose content has 40 lines.
func longWrite() agent.ToolCall {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "line %d of the report\\n", i)
	}
	c := writeCall
	c.Arguments = `{"path":"REPORT.md","content":"` + b.String() + `"}`
	return c
}

var whereRE = regexp.MustCompile(`lines (\d+)–(\d+) of (\d+) · ↑↓ pgdn`)

// TestApprovalScrollHints: at 80x24 and 60x16 the approval pane says
// where the person is in a call too long to show whole and which keys
// scroll it; with the content unfolded (v), ↓, j, pgdn, space and end move
// the view and answer nothing — the pane stays, no decision is sent (SPEC
// D4, D7, L6; issue 18 item 8); settled, the blank line above the
// buttons shows one more line of the call. Before, the pane said "lines
// 1–6 of 8" and no key.
// Goldens: go test ./tui/ -run TestApprovalScrollHints -update.
func TestApprovalScrollHints(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			clk := &clock{now: t0}
			fb := newFakeBackend()
			m := startModel(t, fb, Options{Now: clk.Now})
			m, _ = update(m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			m, _, replies := ask(t, m, fb, longWrite())
			clk.advance(time.Second)
			first := whereRE.FindStringSubmatch(m.View())
			if first == nil || first[1] != "1" {
				t.Fatalf("the pane does not say where it is and how to scroll:\n%s", m.View())
			}
			golden.RequireEqual(t, []byte(m.View()))
			m, _ = update(m, keyRune('v')) // every line of the content
			last := whereRE.FindStringSubmatch(m.View())
			for _, k := range []tea.KeyMsg{keyDown, keyRune('j'), keyPgDn, keyRune(' '), keyEnd} {
				m, _ = update(m, k)
				now := whereRE.FindStringSubmatch(m.View())
				if now == nil || now[1] == last[1] {
					t.Errorf("%q did not scroll: %v then %v\n%s", k.String(), last, now, m.View())
				}
				last = now
				topApproval(t, m)
				select {
				case d := <-replies[0]:
					t.Fatalf("%q answered the pane: %+v", k.String(), d)
				default:
				}
			}
			if last[2] != last[3] {
				t.Errorf("end does not show the last line: %v", last)
			}
			// Settled, the line that said "keys active in a moment" shows
			// one more line of the call (not in the compact form).
			shown := func(m []string) int { return atoi(m[2]) - atoi(m[1]) + 1 }
			if want := shown(first) + 1; sz.h >= 24 && shown(last) != want {
				t.Errorf("settled, the pane shows %d lines of the call, want %d", shown(last), want)
			}
		})
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
