package store

import (
	"encoding/binary"
	"fmt"

	"go.etcd.io/bbolt"
)

// TailOptions say how much of a conversation's end TailMessages reads.
type TailOptions struct {
	// Bytes is the size the messages read must reach, walking back from
	// the newest (Size counts each message). Zero reads back to the first
	// message.
	Bytes int
	// PerMessage is added to each message's size: what a message costs
	// beyond its text.
	PerMessage int
	// Max, when positive, stops the walk after that many messages even if
	// Bytes is not reached, so a conversation of many short messages
	// still loads in bounded time.
	Max int
	// Step, when above 1, aligns the oldest message read: the walk goes
	// on past where Bytes or Max stopped it, back to the nearest sequence
	// number of the form k*Step+1. That first message then stays the same
	// while the conversation grows by up to Step messages, instead of
	// moving by one with every message added.
	Step uint64
}

// Size is what m counts towards o.Bytes: its content and tool calls, plus
// o.PerMessage.
func (o TailOptions) Size(m Message) int {
	return len(m.Content) + len(m.ToolCalls) + o.PerMessage
}

// capacity is room for the messages a walk by o over a conversation of
// count messages may take at most, within reason, so that a tail is read
// into one allocation.
func (o TailOptions) capacity(count uint64) int {
	n := int(min(count, 20_000))
	if o.Max > 0 {
		n = min(n, o.Max)
	}
	if o.Bytes > 0 && o.PerMessage > 0 {
		n = min(n, o.Bytes/o.PerMessage+1)
	}
	return min(n+int(min(o.Step, 20_000)), int(min(count, 40_000)))
}

// Walk starts applying o to a walk back from a conversation's newest
// message (see TailWalk).
func (o TailOptions) Walk() *TailWalk { return &TailWalk{o: o} }

// TailWalk applies TailOptions to a walk back from a conversation's newest
// message. TailMessages uses it, and so can a caller that keeps the tail
// it read and only reads what was added since: the same messages give the
// same tail.
type TailWalk struct {
	o     TailOptions
	size  int
	n     int
	done  bool
	first uint64 // the aligned first sequence number, once done
}

// Take is given each message's sequence number and Size, newest first, and
// reports whether the message belongs to the tail. Once it reports false
// it does so for every older message too.
func (w *TailWalk) Take(seq uint64, size int) bool {
	if w.done {
		return seq >= w.first
	}
	w.n++
	w.size += size
	if (w.o.Bytes > 0 && w.size >= w.o.Bytes) || (w.o.Max > 0 && w.n >= w.o.Max) {
		w.done, w.first = true, alignedStart(seq, w.o.Step)
	}
	return true
}

// past reports whether every message from seq down is outside the tail,
// without the message's size (so without decoding it).
func (w *TailWalk) past(seq uint64) bool { return w.done && seq < w.first }

// TailMessages returns the newest messages of the conversation, oldest
// first: back from the newest until o.Bytes or o.Max is reached, and then
// on to the step boundary of o.Step (see TailOptions). It reads in one
// transaction with a cursor from the end, so its cost follows what it
// returns, never the transcript's length.
func (db *DB) TailMessages(convID string, o TailOptions) ([]Message, error) {
	out, _, err := db.tailMessages(convID, o, false, nil)
	return out, err
}

// Reach ends a walk back over a conversation before its TailOptions do
// (TailMessagesWeighed): it is given each message the walk takes, newest
// first, with the weight kept for it (nil where none is), and reports
// true once the messages given reach as far back as the reader will ever
// look. The walk then takes the messages back to the nearest of the
// person's ("user") at or before that one, and stops: the older ones are
// not read at all.
type Reach func(m Message, kept []byte) bool

// tailMessages is TailMessages, with each message's kept weight
// (message_weights.go) when weights is set, ended early by reach (nil:
// never).
func (db *DB) tailMessages(convID string, o TailOptions, weights bool, reach Reach) (out []Message, kept [][]byte, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		b := messageBucket(tx, convID)
		if b == nil {
			return fmt.Errorf("conversation %s: %w", convID, ErrNotFound)
		}
		var ws weightWalk
		if weights {
			ws = newWeightWalk(weightBucket(tx, convID))
		}
		out = make([]Message, 0, o.capacity(b.Sequence()))
		if weights {
			kept = make([][]byte, 0, cap(out))
		}
		w := o.Walk()
		reached := false // reach said so: on to the nearest message of the person's
		c := b.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			if len(k) == 8 && w.past(binary.BigEndian.Uint64(k)) {
				break
			}
			m, err := decodeMessage(convID, k, v)
			if err != nil {
				return err
			}
			if !w.Take(m.Seq, o.Size(m)) {
				break
			}
			out = append(out, m)
			var weight []byte
			if weights {
				weight = ws.at(k, v)
				kept = append(kept, weight)
			}
			if reach != nil && !reached {
				reached = reach(m, weight)
			}
			if reached && m.Role == "user" {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read the end of conversation %s: %w", convID, err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	return out, kept, nil
}

// MessagesAfter returns up to n of the conversation's messages with Seq >
// after, oldest first: what was added since a caller last read up to
// after. A result of n messages may have more after it.
func (db *DB) MessagesAfter(convID string, after uint64, n int) ([]Message, error) {
	var out []Message
	err := db.view(func(tx *bbolt.Tx) error {
		b := messageBucket(tx, convID)
		if b == nil {
			return fmt.Errorf("conversation %s: %w", convID, ErrNotFound)
		}
		c := b.Cursor()
		for k, v := c.Seek(seqKey(after + 1)); k != nil && len(out) < n; k, v = c.Next() {
			m, err := decodeMessage(convID, k, v)
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the new messages of conversation %s: %w", convID, err)
	}
	return out, nil
}

// alignedStart is the largest k*step+1 not above seq (sequence numbers
// start at 1).
func alignedStart(seq, step uint64) uint64 {
	if step <= 1 || seq == 0 {
		return seq
	}
	return (seq-1)/step*step + 1
}
