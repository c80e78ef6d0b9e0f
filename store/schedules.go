package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// The schedule log (SPEC H6) says what became of every tick of every
// profile's schedule: started (with the run's ID), missed (vouch was not
// running, or a resource the run needs was down) or skipped (the Agent
// Workflows switch was off, or the previous run was still going). Nothing
// is silently dropped: ticks missed while vouch was closed are recorded as
// one entry with their count, first and last time.
//
// Keys in the schedule_log bucket: "e" + big-endian sequence → entry (JSON),
// "m" + profile name → the time of the last tick handled (its mark, a
// big-endian unix ns), from which the scheduler counts what it missed.

// ScheduleOutcome is what became of a tick.
type ScheduleOutcome string

// The outcomes of a tick.
const (
	TickStarted ScheduleOutcome = "started"
	TickMissed  ScheduleOutcome = "missed"
	TickSkipped ScheduleOutcome = "skipped"
)

// ScheduleEntry is one line of the schedule log.
type ScheduleEntry struct {
	Seq     uint64 `json:"seq"`
	Profile string `json:"profile"`
	// Due is the tick's time; for several missed ticks, the first, with
	// Last the last one and Count how many.
	Due     time.Time       `json:"due"`
	Last    time.Time       `json:"last,omitzero"`
	Count   int             `json:"count"`
	Outcome ScheduleOutcome `json:"outcome"`
	// Reason says why a tick was missed or skipped, in one sentence.
	Reason   string    `json:"reason,omitempty"`
	RunID    string    `json:"run_id,omitempty"`
	Recorded time.Time `json:"recorded"`
}

func scheduleEntryKey(seq uint64) []byte    { return binary.BigEndian.AppendUint64([]byte("e"), seq) }
func scheduleMarkKey(profile string) []byte { return append([]byte("m"), profile...) }

// AppendScheduleEntry records e and moves the profile's mark to its last
// tick (never backwards), in one commit.
func (db *DB) AppendScheduleEntry(e ScheduleEntry) (ScheduleEntry, error) {
	switch e.Outcome {
	case TickStarted, TickMissed, TickSkipped:
	default:
		return e, fmt.Errorf("schedule entry with outcome %q: %w", e.Outcome, ErrInvalid)
	}
	if e.Profile == "" || e.Due.IsZero() {
		return e, fmt.Errorf("schedule entry without a profile or a time: %w", ErrInvalid)
	}
	if e.Count < 1 {
		e.Count = 1
	}
	e.Recorded = db.timestamp()
	e.Reason = capText(e.Reason, MaxRunEventText)
	last := e.Due
	if e.Last.After(last) {
		last = e.Last
	}
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketScheduleLog)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		e.Seq = seq
		v, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("encode schedule entry: %w", err)
		}
		if err := b.Put(scheduleEntryKey(seq), v); err != nil {
			return err
		}
		return putMark(b, e.Profile, last)
	})
	if err != nil {
		return e, fmt.Errorf("record the schedule tick of %q: %w", e.Profile, err)
	}
	return e, nil
}

func putMark(b *bbolt.Bucket, profile string, t time.Time) error {
	key := scheduleMarkKey(profile)
	if old := b.Get(key); len(old) == 8 && int64(binary.BigEndian.Uint64(old)) >= t.UnixNano() {
		return nil
	}
	return b.Put(key, binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())))
}

// ScheduleMark returns the time of the last tick handled for profile; ok
// is false when none was.
func (db *DB) ScheduleMark(profile string) (t time.Time, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketScheduleLog).Get(scheduleMarkKey(profile))
		if v == nil {
			return nil
		}
		if len(v) != 8 {
			return fmt.Errorf("schedule mark of %q: %w", profile, ErrCorrupt)
		}
		t, ok = time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC(), true
		return nil
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("read the schedule mark: %w", err)
	}
	return t, ok, nil
}

// SetScheduleMark moves the profile's mark to t (never backwards), e.g.
// when its schedule is first seen, so that nothing before it counts as
// missed.
func (db *DB) SetScheduleMark(profile string, t time.Time) error {
	err := db.update(func(tx *bbolt.Tx) error {
		return putMark(tx.Bucket(bucketScheduleLog), profile, t)
	})
	if err != nil {
		return fmt.Errorf("write the schedule mark of %q: %w", profile, err)
	}
	return nil
}

// ScheduleLog returns up to n entries, newest first.
func (db *DB) ScheduleLog(n int) ([]ScheduleEntry, error) {
	var out []ScheduleEntry
	err := db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketScheduleLog).Cursor()
		// Entries ("e…") sort before marks ("m…"): start below the marks.
		k, _ := c.Seek([]byte("f"))
		var v []byte
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && len(out) < n && bytes.HasPrefix(k, []byte("e")); k, v = c.Prev() {
			var e ScheduleEntry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("schedule entry %x: %w (%w)", k, ErrCorrupt, err)
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the schedule log: %w", err)
	}
	return out, nil
}
