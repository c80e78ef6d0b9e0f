package store

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"go.etcd.io/bbolt"
)

// Run history (SPEC H7): every run — chat, profile, scheduled, headless —
// is one RunRecord in the runs bucket and a list of RunEvents in a nested
// bucket of run_events named by the run's ID.
//
// A run ID is 16 hex digits of its start time (unix ns) and 8 random ones,
// so the runs bucket is ordered by start time and Runs reads newest first
// with a cursor, touching only the records it returns. Runs still running
// are also listed in a nested bucket of runs (runningKey), so Open can
// mark the ones a crash left behind as failed without a scan.
//
// History is bounded: a run keeps at most MaxRunEvents events, each text
// at most MaxRunEventText bytes (longer text is cut on a rune boundary and
// marked); later events are counted in EventsDropped, never silently lost.
// Callers coalesce (one text event per model turn, not one per token).

// RunKind says what started a run.
type RunKind string

// The kinds of run.
const (
	RunChat      RunKind = "chat"
	RunProfile   RunKind = "profile"
	RunScheduled RunKind = "scheduled"
	RunHeadless  RunKind = "headless"
)

// RunOutcome is where a run stands or how it ended.
type RunOutcome string

// The outcomes of a run. Running is the only one that is not final.
const (
	RunRunning         RunOutcome = "running"
	RunDone            RunOutcome = "done"
	RunFailed          RunOutcome = "failed"
	RunCancelled       RunOutcome = "cancelled"
	RunWaitingApproval RunOutcome = "waiting-approval"
	RunSkipped         RunOutcome = "skipped"
	// RunMissed is a scheduled run that could not start: vouch was not
	// running, or a resource it needs was down (SPEC H6).
	RunMissed RunOutcome = "missed"
)

// Final reports whether o ends a run.
func (o RunOutcome) Final() bool {
	switch o {
	case RunDone, RunFailed, RunCancelled, RunWaitingApproval, RunSkipped, RunMissed:
		return true
	}
	return false
}

// Bounds of run history.
const (
	MaxRunEvents    = 2000
	MaxRunEventText = 4 << 10
	MaxRunTask      = 8 << 10
)

// RunRecord is one run in history.
type RunRecord struct {
	ID   string  `json:"id"`
	Kind RunKind `json:"kind"`
	// Profile and ProfileRevision name the frozen profile revision;
	// Definition and DefinitionRevision the frozen definition (empty for
	// chat runs).
	Profile            string `json:"profile,omitempty"`
	ProfileRevision    int    `json:"profile_revision,omitempty"`
	Definition         string `json:"definition,omitempty"`
	DefinitionRevision int    `json:"definition_revision,omitempty"`
	// ConversationID is the conversation a chat run belongs to.
	ConversationID string `json:"conversation_id,omitempty"`
	// Spec is the frozen specification the run started with (JSON, as the
	// caller encodes it: model, window, allowlist with wire names, policy,
	// workspace, skills with digests, budgets).
	Spec    json.RawMessage `json:"spec,omitempty"`
	Task    string          `json:"task"`
	Started time.Time       `json:"started"`
	Ended   time.Time       `json:"ended,omitzero"`
	Outcome RunOutcome      `json:"outcome"`
	// Error is the one sentence a failed, cancelled, waiting or skipped run
	// ended with.
	Error         string `json:"error,omitempty"`
	Events        int    `json:"events"`
	EventsDropped int    `json:"events_dropped,omitempty"`
	// ToolCalls counts the run's tool-call events, kept or not.
	ToolCalls int `json:"tool_calls"`
}

// RunEventKind is what a RunEvent records.
type RunEventKind string

// The kinds of run event.
const (
	EventText       RunEventKind = "text"        // the model's text of one turn (coalesced)
	EventToolCall   RunEventKind = "tool-call"   // a call, before its handler runs
	EventToolResult RunEventKind = "tool-result" // its result, bounded
	EventApproval   RunEventKind = "approval"    // asked, allowed, denied, timed out
	EventNote       RunEventKind = "note"        // the frozen plan, a step, a limit
	EventError      RunEventKind = "error"
)

// RunEvent is one entry of a run's history.
type RunEvent struct {
	Seq           uint64       `json:"seq"`
	At            time.Time    `json:"at"`
	Kind          RunEventKind `json:"kind"`
	CorrelationID string       `json:"correlation_id,omitempty"`
	Identity      string       `json:"identity,omitempty"`
	Text          string       `json:"text,omitempty"`
	IsError       bool         `json:"is_error,omitempty"`
}

var runningKey = []byte("~running") // sorts after every hex run ID

// newRunID returns a run ID that sorts by start time.
func newRunID(started time.Time) (string, error) {
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("make a run ID: %w", err)
	}
	return fmt.Sprintf("%016x%s", uint64(started.UnixNano()), hex.EncodeToString(r[:])), nil
}

// validRunID reports whether id has the shape newRunID makes.
func validRunID(id string) bool {
	if len(id) != 24 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// capText cuts s to at most n bytes on a rune boundary, marking the cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " …[cut]"
	cut := n - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

// CreateRun records the start of a run and returns it as saved: a new ID,
// Started (the store's clock when zero), Outcome running unless the caller
// gives a final one (a skipped run is recorded whole), the task capped at
// MaxRunTask bytes.
func (db *DB) CreateRun(r RunRecord) (RunRecord, error) {
	switch r.Kind {
	case RunChat, RunProfile, RunScheduled, RunHeadless:
	default:
		return RunRecord{}, fmt.Errorf("run of kind %q: %w", r.Kind, ErrInvalid)
	}
	if r.Started.IsZero() {
		r.Started = db.timestamp()
	}
	switch {
	case r.Outcome == "":
		r.Outcome = RunRunning
	case r.Outcome.Final() && r.Ended.IsZero():
		r.Ended = r.Started
	case r.Outcome != RunRunning && !r.Outcome.Final():
		return RunRecord{}, fmt.Errorf("run outcome %q: %w", r.Outcome, ErrInvalid)
	}
	if len(r.Spec) > 0 && !json.Valid(r.Spec) {
		return RunRecord{}, fmt.Errorf("run spec is not JSON: %w", ErrInvalid)
	}
	id, err := newRunID(r.Started)
	if err != nil {
		return RunRecord{}, err
	}
	r.ID, r.Events, r.EventsDropped, r.ToolCalls = id, 0, 0, 0
	r.Task = capText(r.Task, MaxRunTask)
	r.Error = capText(r.Error, MaxRunEventText)
	v, err := json.Marshal(r)
	if err != nil {
		return RunRecord{}, fmt.Errorf("encode run: %w", err)
	}
	err = db.update(func(tx *bbolt.Tx) error {
		runs := tx.Bucket(bucketRuns)
		if err := runs.Put([]byte(r.ID), v); err != nil {
			return err
		}
		if r.Outcome != RunRunning {
			return nil
		}
		running, err := runs.CreateBucketIfNotExists(runningKey)
		if err != nil {
			return err
		}
		return running.Put([]byte(r.ID), nil)
	})
	if err != nil {
		return RunRecord{}, fmt.Errorf("record the run: %w", err)
	}
	return r, nil
}

// AppendRunEvents adds evs to the run's history in one commit, stamping
// each with the next sequence number and (when zero) the store's clock.
// Past MaxRunEvents the events are counted, not kept.
func (db *DB) AppendRunEvents(id string, evs ...RunEvent) error {
	if len(evs) == 0 {
		return nil
	}
	now := db.timestamp()
	err := db.update(func(tx *bbolt.Tx) error {
		r, err := getRun(tx, id)
		if err != nil {
			return err
		}
		b, err := tx.Bucket(bucketRunEvents).CreateBucketIfNotExists([]byte(id))
		if err != nil {
			return err
		}
		for _, ev := range evs {
			if ev.Kind == EventToolCall {
				r.ToolCalls++
			}
			if r.Events >= MaxRunEvents {
				r.EventsDropped++
				continue
			}
			seq, err := b.NextSequence()
			if err != nil {
				return err
			}
			ev.Seq = seq
			if ev.At.IsZero() {
				ev.At = now
			}
			ev.Text = capText(ev.Text, MaxRunEventText)
			ev.Identity = capText(ev.Identity, 512)
			v, err := json.Marshal(ev)
			if err != nil {
				return fmt.Errorf("encode run event: %w", err)
			}
			if err := b.Put(binary.BigEndian.AppendUint64(nil, seq), v); err != nil {
				return err
			}
			r.Events++
		}
		return putRun(tx, r)
	})
	if err != nil {
		return fmt.Errorf("record events of run %s: %w", id, err)
	}
	return nil
}

// FinishRun ends a running run with a final outcome and, unless the run
// succeeded, the sentence it ended with. Finishing a run twice is
// ErrInvalid: the first outcome stands.
func (db *DB) FinishRun(id string, outcome RunOutcome, errText string) (RunRecord, error) {
	if !outcome.Final() {
		return RunRecord{}, fmt.Errorf("finish run %s with outcome %q: %w", id, outcome, ErrInvalid)
	}
	var r RunRecord
	err := db.update(func(tx *bbolt.Tx) error {
		var err error
		r, err = getRun(tx, id)
		if err != nil {
			return err
		}
		if r.Outcome != RunRunning {
			return fmt.Errorf("run %s already ended (%s): %w", id, r.Outcome, ErrInvalid)
		}
		r.Outcome, r.Error, r.Ended = outcome, capText(errText, MaxRunEventText), db.timestamp()
		if err := putRun(tx, r); err != nil {
			return err
		}
		if running := tx.Bucket(bucketRuns).Bucket(runningKey); running != nil {
			return running.Delete([]byte(id))
		}
		return nil
	})
	if err != nil {
		return RunRecord{}, fmt.Errorf("finish run: %w", err)
	}
	return r, nil
}

// Run returns one run; ErrNotFound when there is none.
func (db *DB) Run(id string) (RunRecord, error) {
	var r RunRecord
	err := db.view(func(tx *bbolt.Tx) error {
		var err error
		r, err = getRun(tx, id)
		return err
	})
	if err != nil {
		return RunRecord{}, fmt.Errorf("read run: %w", err)
	}
	return r, nil
}

// RunEvents returns the run's events in order.
func (db *DB) RunEvents(id string) ([]RunEvent, error) {
	var out []RunEvent
	err := db.view(func(tx *bbolt.Tx) error {
		if _, err := getRun(tx, id); err != nil {
			return err
		}
		b := tx.Bucket(bucketRunEvents).Bucket([]byte(id))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var ev RunEvent
			if err := json.Unmarshal(v, &ev); err != nil {
				return fmt.Errorf("run event %x: %w (%w)", k, ErrCorrupt, err)
			}
			out = append(out, ev)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read events of run %s: %w", id, err)
	}
	return out, nil
}

// Runs returns up to n runs, newest first, that started before the run
// whose ID is before ("" : from the newest). next is the cursor for the
// following page, "" when there is none.
func (db *DB) Runs(before string, n int) (runs []RunRecord, next string, err error) {
	if n <= 0 {
		return nil, "", nil
	}
	if before != "" && !validRunID(before) {
		return nil, "", fmt.Errorf("run cursor %q: %w", before, ErrInvalid)
	}
	err = db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketRuns).Cursor()
		var k, v []byte
		if before == "" {
			k, v = c.Last()
		} else {
			k, v = c.Seek([]byte(before))
			if k == nil {
				k, v = c.Last()
			}
			if k != nil && bytes.Compare(k, []byte(before)) >= 0 {
				k, v = c.Prev()
			}
		}
		for ; k != nil; k, v = c.Prev() {
			if v == nil {
				continue // the running index
			}
			if len(runs) == n {
				next = runs[n-1].ID
				return nil
			}
			var r RunRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("run %s: %w (%w)", k, ErrCorrupt, err)
			}
			runs = append(runs, r)
		}
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("list runs: %w", err)
	}
	return runs, next, nil
}

// recoverRuns marks every run still running — its process died with it —
// as failed, so history never shows a dead run as live (SPEC H7, K3). It
// costs one read when there is nothing to do.
func (db *DB) recoverRuns() error {
	var pending bool
	err := db.view(func(tx *bbolt.Tx) error {
		if b := tx.Bucket(bucketRuns).Bucket(runningKey); b != nil {
			k, _ := b.Cursor().First()
			pending = k != nil
		}
		return nil
	})
	if err != nil || !pending {
		return err
	}
	return db.update(func(tx *bbolt.Tx) error {
		runs := tx.Bucket(bucketRuns)
		running := runs.Bucket(runningKey)
		var ids [][]byte
		if err := running.ForEach(func(k, _ []byte) error {
			ids = append(ids, bytes.Clone(k))
			return nil
		}); err != nil {
			return err
		}
		for _, id := range ids {
			r, err := getRun(tx, string(id))
			if err == nil && r.Outcome == RunRunning {
				r.Outcome, r.Ended = RunFailed, db.timestamp()
				r.Error = "interrupted: vouch stopped before the run ended (closed, killed or crashed); start it again if it is still needed"
				if err := putRun(tx, r); err != nil {
					return err
				}
			}
			if err := running.Delete(id); err != nil {
				return err
			}
		}
		return nil
	})
}

func getRun(tx *bbolt.Tx, id string) (RunRecord, error) {
	var r RunRecord
	if !validRunID(id) {
		return r, fmt.Errorf("run %q: %w", id, ErrNotFound)
	}
	v := tx.Bucket(bucketRuns).Get([]byte(id))
	if v == nil {
		return r, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return r, fmt.Errorf("run %s: %w (%w)", id, ErrCorrupt, err)
	}
	return r, nil
}

func putRun(tx *bbolt.Tx, r RunRecord) error {
	v, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode run %s: %w", r.ID, err)
	}
	return tx.Bucket(bucketRuns).Put([]byte(r.ID), v)
}
