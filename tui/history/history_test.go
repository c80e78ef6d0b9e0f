package history

import (
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// screen is an input and a transcript that apply an arrow's Effect.
type screen struct {
	value   string
	follow  bool
	inInput bool
	scroll  int
	prompts []string // oldest first
}

func (s *screen) arrow(h *State, at time.Time, dir int) Effect {
	e := h.Arrow(at, dir, Screen{Value: s.value, InInput: s.inInput, Follow: s.follow, Prompt: func(n int) (string, bool) {
		if n > len(s.prompts) {
			return "", false
		}
		return s.prompts[len(s.prompts)-n], true
	}})
	if e.SetValue {
		s.value = e.Value
	}
	for _, d := range e.Scroll {
		s.scroll += d
	}
	return e
}

// TestArrowRules (SPEC L5; issue 18 item 15): each rule of the package
// comment, as a person and a wheel meet it.
func TestArrowRules(t *testing.T) {
	slow := time.Second // a person's presses
	t.Run("recall walks back and forth, past the newest is empty", func(t *testing.T) {
		s := &screen{follow: true, prompts: []string{"one", "two"}}
		var h State
		for i, want := range []struct {
			dir   int
			value string
			at    int
		}{{-1, "two", 1}, {-1, "one", 2}, {-1, "one", 2}, {+1, "two", 1}, {+1, "", 0}, {+1, "", 0}} {
			s.arrow(&h, t0.Add(time.Duration(i)*slow), want.dir)
			if s.value != want.value || h.At() != want.at {
				t.Fatalf("step %d: input %q at %d, want %q at %d", i, s.value, h.At(), want.value, want.at)
			}
		}
	})
	t.Run("a burst scrolls and takes back its first recall", func(t *testing.T) {
		s := &screen{follow: true, prompts: []string{"one"}}
		var h State
		s.arrow(&h, t0, -1)
		s.arrow(&h, t0.Add(5*time.Millisecond), -1)
		s.arrow(&h, t0.Add(10*time.Millisecond), -1)
		if s.value != "" || h.At() != 0 || s.scroll != -3 {
			t.Errorf("after a burst: input %q at %d, scrolled %d; want empty, 0, -3 (a line an arrow)", s.value, h.At(), s.scroll)
		}
	})
	t.Run("scrolled up, arrows scroll", func(t *testing.T) {
		s := &screen{follow: false, prompts: []string{"one"}}
		var h State
		s.arrow(&h, t0, -1)
		if s.value != "" || s.scroll != -1 {
			t.Errorf("input %q, scrolled %d; want empty, -1", s.value, s.scroll)
		}
	})
	t.Run("inside a multi-line input the cursor moves", func(t *testing.T) {
		s := &screen{follow: true, inInput: true, value: "a\nb", prompts: []string{"one"}}
		var h State
		if e := s.arrow(&h, t0, -1); !reflect.DeepEqual(e, Effect{Cursor: true}) {
			t.Errorf("effect %+v, want the key for the input", e)
		}
	})
	t.Run("a draft is never replaced", func(t *testing.T) {
		s := &screen{follow: true, value: "my draft", prompts: []string{"one"}}
		var h State
		s.arrow(&h, t0, -1)
		s.arrow(&h, t0.Add(slow), +1)
		if s.value != "my draft" || s.scroll != -1 {
			t.Errorf("input %q, scrolled %d; want the draft kept and one line scrolled", s.value, s.scroll)
		}
	})
	t.Run("an edited recall is a draft", func(t *testing.T) {
		s := &screen{follow: true, prompts: []string{"one", "two"}}
		var h State
		s.arrow(&h, t0, -1)
		s.value += " more"
		s.arrow(&h, t0.Add(slow), -1)
		if s.value != "two more" || h.At() != 0 {
			t.Errorf("input %q at %d; want the edit kept, not browsing", s.value, h.At())
		}
	})
	t.Run("a clock going back is no burst", func(t *testing.T) {
		s := &screen{follow: true, prompts: []string{"one", "two"}}
		var h State
		s.arrow(&h, t0, -1)
		s.arrow(&h, t0.Add(-time.Millisecond), -1)
		if s.value != "one" {
			t.Errorf("input %q, want the second recall", s.value)
		}
	})
}
