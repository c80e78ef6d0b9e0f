package benchtab

import (
	"testing"
	"time"
)

// TestMedian: the middle of an odd count, the mean of the two middle ones
// of an even count, whatever the order, and the input left as it was.
func TestMedian(t *testing.T) {
	ds := []time.Duration{5, 1, 9}
	if got := Median(ds); got != 5 {
		t.Errorf("Median(5, 1, 9) = %v, want 5", got)
	}
	if ds[0] != 5 || ds[1] != 1 {
		t.Errorf("Median sorted its input: %v", ds)
	}
	if got := Median([]time.Duration{8, 2, 4, 6}); got != 5 {
		t.Errorf("Median(8, 2, 4, 6) = %v, want 5", got)
	}
}
