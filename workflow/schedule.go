package workflow

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A schedule (SPEC H6) is an interval ("every": a Go duration of at least a
// minute, ticks counted from the last tick handled) or a five-field cron
// expression: minute hour day-of-month month day-of-week, each field "*",
// a number, a range "a-b", a step "*/n" or "a-b/n", or a comma list of
// those; months and weekdays also by their English three-letter names;
// weekday 0 and 7 are Sunday. When both day fields are restricted, a day
// matching either fires (as in classic cron). Times are local time.
//
// The parser is small and dependency-free because a schedule string comes
// from the person or from a profile file, and everything about it must be
// refusable with one clear sentence.

// Timetable computes a schedule's ticks.
type Timetable interface {
	// Next returns the first tick strictly after t; ok is false when there
	// is none within five years (e.g. "0 0 31 2 *").
	Next(t time.Time) (time.Time, bool)
	// String is the schedule in words, e.g. "every 1h0m0s" or "cron 0 9 * * 1-5".
	String() string
}

// minEvery is the shortest interval a schedule may have.
const minEvery = time.Minute

// ParseSchedule parses a profile's schedule; an error is one sentence
// that says what to write instead.
func ParseSchedule(s Schedule) (Timetable, error) {
	switch {
	case s.Every != "" && s.Cron != "":
		return nil, errors.New("a schedule is either every DURATION or cron EXPR, not both")
	case s.Every != "":
		d, err := time.ParseDuration(s.Every)
		if err != nil {
			return nil, fmt.Errorf("every %q is not a duration; write it like 30m, 2h or 24h", s.Every)
		}
		if d < minEvery {
			return nil, fmt.Errorf("every %q is shorter than a minute; schedules run at most once a minute", s.Every)
		}
		return every(d), nil
	case s.Cron != "":
		return parseCron(s.Cron)
	}
	return nil, errors.New("a schedule needs every DURATION or cron EXPR")
}

type every time.Duration

func (e every) Next(t time.Time) (time.Time, bool) { return t.Add(time.Duration(e)), true }
func (e every) String() string                     { return "every " + time.Duration(e).String() }

// cronSpec is a parsed five-field expression: one bit per allowed value.
type cronSpec struct {
	text                     string
	minute, hour, dom, month uint64
	dow                      uint64
	domStar, dowStar         bool
}

func (c *cronSpec) String() string { return "cron " + c.text }

type cronField struct {
	name     string
	min, max int
	names    []string // index + min is the value
}

var (
	monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	dayNames   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
)

// maxCronLen bounds the expression; longer text is refused before parsing.
const maxCronLen = 256

// parseCron parses a five-field cron expression.
func parseCron(expr string) (*cronSpec, error) {
	if len(expr) > maxCronLen {
		return nil, fmt.Errorf("cron is longer than %d characters; a schedule has five short fields", maxCronLen)
	}
	fields := strings.Fields(expr)
	if len(fields) != 5 {
		return nil, fmt.Errorf("cron %q has %d fields; write five: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"", expr, len(fields))
	}
	defs := []cronField{
		{name: "minute", min: 0, max: 59},
		{name: "hour", min: 0, max: 23},
		{name: "day-of-month", min: 1, max: 31},
		{name: "month", min: 1, max: 12, names: monthNames},
		{name: "day-of-week", min: 0, max: 7, names: dayNames},
	}
	var bits [5]uint64
	for i, f := range fields {
		b, err := parseCronField(f, defs[i])
		if err != nil {
			return nil, fmt.Errorf("cron %q: %w", expr, err)
		}
		bits[i] = b
	}
	c := &cronSpec{text: strings.Join(fields, " "), minute: bits[0], hour: bits[1], dom: bits[2], month: bits[3], dow: bits[4],
		domStar: fields[2] == "*", dowStar: fields[4] == "*"}
	if c.dow&(1<<7) != 0 { // 7 is Sunday too
		c.dow |= 1
	}
	return c, nil
}

func parseCronField(f string, def cronField) (uint64, error) {
	var bits uint64
	for _, part := range strings.Split(f, ",") {
		rng, stepText, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 || n > def.max {
				return 0, fmt.Errorf("%s step %q must be a number from 1 to %d", def.name, stepText, def.max)
			}
			step = n
		}
		lo, hi := def.min, def.max
		switch {
		case rng == "*":
		case strings.Contains(rng, "-"):
			a, b, _ := strings.Cut(rng, "-")
			var err error
			if lo, err = cronValue(a, def); err != nil {
				return 0, err
			}
			if hi, err = cronValue(b, def); err != nil {
				return 0, err
			}
			if lo > hi {
				return 0, fmt.Errorf("%s range %q runs backwards; write the smaller value first", def.name, rng)
			}
		default:
			v, err := cronValue(rng, def)
			if err != nil {
				return 0, err
			}
			lo, hi = v, v
			if hasStep {
				hi = def.max
			}
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, nil
}

func cronValue(s string, def cronField) (int, error) {
	for i, n := range def.names {
		if strings.EqualFold(s, n) {
			return def.min + i, nil
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < def.min || v > def.max || len(s) > 2 {
		return 0, fmt.Errorf("%s value %q must be a number from %d to %d", def.name, s, def.min, def.max)
	}
	return v, nil
}

func has(bits uint64, v int) bool { return bits&(1<<uint(v)) != 0 }

// dayMatches applies classic cron's rule: with both day fields restricted,
// either may match.
func (c *cronSpec) dayMatches(t time.Time) bool {
	dom, dow := has(c.dom, t.Day()), has(c.dow, int(t.Weekday()))
	switch {
	case c.domStar && c.dowStar:
		return true
	case c.domStar:
		return dow
	case c.dowStar:
		return dom
	}
	return dom || dow
}

// cronHorizon bounds the search for the next tick.
const cronHorizon = 5 * 366 * 24 * time.Hour

// Next skips whole months, days and hours that cannot match, so even a
// schedule that fires once in four years is found in a few thousand steps.
func (c *cronSpec) Next(after time.Time) (time.Time, bool) {
	t := after.Truncate(time.Minute).Add(time.Minute)
	end := after.Add(cronHorizon)
	// forward moves to u, or one minute on where a daylight-saving change
	// would make u go backwards.
	forward := func(u time.Time) time.Time {
		if !u.After(t) {
			return t.Add(time.Minute)
		}
		return u
	}
	for t.Before(end) {
		y, m, d := t.Date()
		switch {
		case !has(c.month, int(m)):
			t = forward(time.Date(y, m+1, 1, 0, 0, 0, 0, t.Location()))
		case !c.dayMatches(t):
			t = forward(time.Date(y, m, d+1, 0, 0, 0, 0, t.Location()))
		case !has(c.hour, t.Hour()):
			t = forward(time.Date(y, m, d, t.Hour()+1, 0, 0, 0, t.Location()))
		case !has(c.minute, t.Minute()):
			t = t.Add(time.Minute)
		default:
			return t, true
		}
	}
	return time.Time{}, false
}
