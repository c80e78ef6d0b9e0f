package workflow

import (
	"strings"
	"testing"
	"time"
)

// TestCronNext: classic five-field semantics, names, steps, lists, the
// day-of-month/day-of-week OR rule, Sunday as 0 and 7, a leap day, and an
// expression that never fires (SPEC H6).
func TestCronNext(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, expr, after, want string
	}{
		{"every minute", "* * * * *", "2026-03-04 10:15", "2026-03-04 10:16"},
		{"seconds are dropped", "* * * * *", "2026-03-04 10:15", "2026-03-04 10:16"},
		{"weekday mornings", "0 9 * * 1-5", "2026-03-06 09:00", "2026-03-09 09:00"}, // Fri → Mon
		{"names", "30 8 * jan,jul SUN", "2026-01-01 00:00", "2026-01-04 08:30"},
		{"step", "*/20 * * * *", "2026-03-04 10:41", "2026-03-04 11:00"},
		{"range step", "5-50/15 * * * *", "2026-03-04 10:36", "2026-03-04 10:50"},
		{"value step", "10/25 * * * *", "2026-03-04 10:36", "2026-03-04 11:10"},
		{"list", "0 6,18 * * *", "2026-03-04 06:00", "2026-03-04 18:00"},
		{"dom or dow", "0 0 13 * 5", "2026-03-01 00:00", "2026-03-06 00:00"}, // Friday the 6th before the 13th
		{"sunday as 7", "0 12 * * 7", "2026-03-02 00:00", "2026-03-08 12:00"},
		{"leap day", "0 0 29 2 *", "2026-03-01 00:00", "2028-02-29 00:00"},
		{"month end", "59 23 31 * *", "2026-04-01 00:00", "2026-05-31 23:59"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseCron(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := c.Next(at(tc.after).Add(30 * time.Second))
			if tc.name != "seconds are dropped" {
				got, ok = c.Next(at(tc.after))
			}
			if !ok || !got.Equal(at(tc.want)) {
				t.Fatalf("next(%s) = %v %v, want %s", tc.after, got, ok, tc.want)
			}
		})
	}
	never, err := parseCron("0 0 31 2 *")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := never.Next(at("2026-01-01 00:00")); ok {
		t.Fatalf("February 31st fired at %v", got)
	}
}

// TestCronAcrossDST: ticks move forward through both daylight-saving
// changes of a zone that has them.
func TestCronAcrossDST(t *testing.T) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("no time zone database: %v", err)
	}
	c, err := parseCron("30 1,2,3 * * *")
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []time.Time{time.Date(2026, 3, 7, 23, 0, 0, 0, loc), time.Date(2026, 10, 31, 23, 0, 0, 0, loc)} {
		cur := start
		for range 10 {
			next, ok := c.Next(cur)
			if !ok || !next.After(cur) {
				t.Fatalf("from %v: next %v %v, want a later tick", cur, next, ok)
			}
			cur = next
		}
	}
}

// TestScheduleRefusals: every bad schedule gets one sentence that says what
// to write instead.
func TestScheduleRefusals(t *testing.T) {
	for _, tc := range []struct {
		s    Schedule
		want string
	}{
		{Schedule{Every: "1h", Cron: "* * * * *"}, "not both"},
		{Schedule{}, "needs every"},
		{Schedule{Every: "soon"}, "write it like 30m"},
		{Schedule{Every: "30s"}, "shorter than a minute"},
		{Schedule{Cron: "* * * *"}, "has 4 fields; write five"},
		{Schedule{Cron: "60 * * * *"}, "minute value \"60\" must be a number from 0 to 59"},
		{Schedule{Cron: "* 5-2 * * *"}, "runs backwards"},
		{Schedule{Cron: "*/0 * * * *"}, "step \"0\""},
		{Schedule{Cron: "* * 0 * *"}, "day-of-month value \"0\""},
		{Schedule{Cron: "* * * foo *"}, "month value \"foo\""},
		{Schedule{Cron: "* * * * 8"}, "day-of-week value \"8\""},
		{Schedule{Cron: strings.Repeat("1,", 200) + "1 * * * *"}, "longer than"},
	} {
		_, err := ParseSchedule(tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error containing %q", tc.s, err, tc.want)
		}
	}
	s, err := ParseSchedule(Schedule{Every: "90m"})
	if err != nil || s.String() != "every 1h30m0s" {
		t.Fatalf("every 90m = %v, %v", s, err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if next, _ := s.Next(t0); !next.Equal(t0.Add(90 * time.Minute)) {
		t.Fatalf("every 90m from %v = %v", t0, next)
	}
}

// FuzzParseCron: any text either is refused or yields a schedule whose
// next tick is a whole minute strictly later, matching every field.
func FuzzParseCron(f *testing.F) {
	for _, s := range []string{"* * * * *", "0 9 * * 1-5", "*/15 0-23/2 1,15 jan-dec sun-sat", "0 0 29 2 *", "0 0 31 2 *", "5/7 * * * 7", "a b c d e", "1-2-3 * * * *", "*/ * * * *"} {
		f.Add(s)
	}
	from := time.Date(2026, 5, 17, 13, 42, 7, 0, time.UTC)
	f.Fuzz(func(t *testing.T, expr string) {
		c, err := parseCron(expr)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		next, ok := c.Next(from)
		if !ok {
			return
		}
		if !next.After(from) || next.Second() != 0 || next.Sub(from) > cronHorizon {
			t.Fatalf("%q: next %v from %v", expr, next, from)
		}
		if !has(c.minute, next.Minute()) || !has(c.hour, next.Hour()) || !has(c.month, int(next.Month())) || !c.dayMatches(next) {
			t.Fatalf("%q: next %v does not match its own fields", expr, next)
		}
	})
}

// TestProfileValidatesItsSchedule: a profile with a schedule that does not
// parse is invalid wherever it is saved from — the CLI, the TUI's editor
// or the store — with the parser's sentence (SPEC H2, H6).
func TestProfileValidatesItsSchedule(t *testing.T) {
	p := Profile{Name: "nightly", Definition: "notes", Schedule: &Schedule{Cron: "0 25 * * *", Task: "summarise"}}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "hour value \"25\"") {
		t.Fatalf("bad cron: %v", err)
	}
	p.Schedule.Cron = "0 2 * * *"
	if err := p.Validate(); err != nil {
		t.Fatalf("good cron: %v", err)
	}
}
