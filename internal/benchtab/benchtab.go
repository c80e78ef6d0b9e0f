// Package benchtab reports the figures of benchmarks that time the same
// step over a grid of cases — kinds of Enter, windows, conversation
// sizes — as medians, and each case against the grid's first size in
// the same run (docs/BENCHMARKS.md). It is imported only by tests.
package benchtab

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// Median is the middle of ds (the mean of the two middle ones for an
// even count); ds is not changed. On a shared machine one run in a few
// waits behind other work, and a mean would report that wait.
func Median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Grid is the times of one step over kinds × windows × sizes:
// Took[k][w][n] for Kinds[k], Windows[w] and Sizes[n].
type Grid struct {
	Kinds   []string
	Windows []int
	Sizes   []int
	Took    [][][][]time.Duration
}

// NewGrid is an empty Grid of those cases.
func NewGrid(kinds []string, windows, sizes []int) *Grid {
	g := &Grid{Kinds: kinds, Windows: windows, Sizes: sizes, Took: make([][][][]time.Duration, len(kinds))}
	for k := range kinds {
		g.Took[k] = make([][][]time.Duration, len(windows))
		for w := range windows {
			g.Took[k][w] = make([][]time.Duration, len(sizes))
		}
	}
	return g
}

// Add records one time of case (k, w, n).
func (g *Grid) Add(k, w, n int, d time.Duration) {
	g.Took[k][w][n] = append(g.Took[k][w][n], d)
}

// Report reports each case's median as "KIND-wWINDOW-nSIZE-ms" and, for
// every size after the first, the median against the first size's of
// the same kind and window as "KIND-wWINDOW-nSIZE-x-of-FIRST".
func (g *Grid) Report(b *testing.B) {
	for k, kind := range g.Kinds {
		for w, window := range g.Windows {
			base := Median(g.Took[k][w][0])
			for n, size := range g.Sizes {
				m := Median(g.Took[k][w][n])
				b.ReportMetric(float64(m.Microseconds())/1000, fmt.Sprintf("%s-w%d-n%d-ms", kind, window, size))
				if n > 0 {
					b.ReportMetric(float64(m)/float64(base), fmt.Sprintf("%s-w%d-n%d-x-of-%d", kind, window, size, g.Sizes[0]))
				}
			}
		}
	}
}
