package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"go.etcd.io/bbolt"

	"vouch/internal/msgcount"
)

// MessageStatus says whether a message's content is final.
type MessageStatus string

// Message statuses. Only complete messages may be shown or sent as finished
// text; streaming and partial ones are marked as interrupted (SPEC A5).
const (
	// StatusComplete is a message whose content is final.
	StatusComplete MessageStatus = "complete"
	// StatusStreaming is a message still being written by a MessageWriter.
	StatusStreaming MessageStatus = "streaming"
	// StatusPartial is a message whose writing stopped early: cancelled,
	// failed, or left streaming by a crashed run (Open converts those).
	StatusPartial MessageStatus = "partial"
)

func (s MessageStatus) valid() bool {
	return s == StatusComplete || s == StatusStreaming || s == StatusPartial
}

// Message is one entry of a conversation's transcript.
type Message struct {
	ConversationID string
	// Seq orders messages within a conversation; AppendMessage assigns it,
	// starting at 1.
	Seq        uint64
	Role       string // "system", "user", "assistant" or "tool"
	Content    string
	ToolCalls  json.RawMessage // the assistant's tool calls as JSON, if any
	ToolCallID string          // for role "tool": the call it answers
	Status     MessageStatus
	IsError    bool // a tool result marked as an error for the model
	// CutOff marks an answer that stopped at its length limit (SPEC A7).
	CutOff  bool
	Created time.Time
}

// messageRecord is a Message as stored: the conversation and sequence
// number live in the bucket path and key.
type messageRecord struct {
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Status     MessageStatus   `json:"status"`
	IsError    bool            `json:"is_error,omitempty"`
	CutOff     bool            `json:"cut_off,omitempty"`
	Created    time.Time       `json:"created"`
}

// AppendMessage stores m at the end of its conversation and returns its
// sequence number. An empty Status means complete; an empty Created means
// now. The conversation's Updated time moves to now.
func (db *DB) AppendMessage(m Message) (uint64, error) {
	if m.Status == "" {
		m.Status = StatusComplete
	}
	if err := validateMessage(m); err != nil {
		return 0, err
	}
	now := db.timestamp()
	if m.Created.IsZero() {
		m.Created = now
	}
	err := db.update(func(tx *bbolt.Tx) error {
		seq, err := appendMessage(tx, m)
		m.Seq = seq
		if err != nil {
			return err
		}
		return touchConversation(tx, m.ConversationID, now, msgcount.Of(m.Role, m.Content))
	})
	if err != nil {
		return 0, fmt.Errorf("append message to conversation %s: %w", m.ConversationID, err)
	}
	return m.Seq, nil
}

// UpdateMessage replaces the stored message (m.ConversationID, m.Seq) with
// m. An empty Created keeps the stored one.
func (db *DB) UpdateMessage(m Message) error {
	if err := validateMessage(m); err != nil {
		return err
	}
	err := db.update(func(tx *bbolt.Tx) error {
		old, ok, err := getMessage(tx, m.ConversationID, m.Seq)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("message %d: %w", m.Seq, ErrNotFound)
		}
		if m.Created.IsZero() {
			m.Created = old.Created
		}
		if err := countSaid(tx, m.ConversationID, msgcount.Of(m.Role, m.Content)-msgcount.Of(old.Role, old.Content)); err != nil {
			return err
		}
		return putMessage(tx, m)
	})
	if err != nil {
		return fmt.Errorf("update message in conversation %s: %w", m.ConversationID, err)
	}
	return nil
}

// LastMessages returns the conversation's last n messages, oldest first. It
// reads only those n records (a cursor from the end), so its cost does not
// grow with the transcript.
func (db *DB) LastMessages(convID string, n int) ([]Message, error) {
	return db.MessagesBefore(convID, 0, n)
}

// MessagesBefore returns up to n messages with Seq < before, oldest first;
// before == 0 means from the end. Use it to page back through history.
func (db *DB) MessagesBefore(convID string, before uint64, n int) ([]Message, error) {
	var out []Message
	err := db.view(func(tx *bbolt.Tx) error {
		b := messageBucket(tx, convID)
		if b == nil {
			return fmt.Errorf("conversation %s: %w", convID, ErrNotFound)
		}
		c := b.Cursor()
		var k, v []byte
		if before == 0 {
			k, v = c.Last()
		} else if k, _ = c.Seek(seqKey(before)); k == nil {
			k, v = c.Last() // every message is older than before
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && len(out) < n; k, v = c.Prev() {
			m, err := decodeMessage(convID, k, v)
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read messages: %w", err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// MessageCount returns how many messages the conversation holds. Messages
// are never deleted, so this is the bucket's sequence: O(1).
func (db *DB) MessageCount(convID string) (int, error) {
	var n uint64
	err := db.view(func(tx *bbolt.Tx) error {
		b := messageBucket(tx, convID)
		if b == nil {
			return fmt.Errorf("conversation %s: %w", convID, ErrNotFound)
		}
		n = b.Sequence()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count messages: %w", err)
	}
	return int(n), nil
}

func validateMessage(m Message) error {
	switch {
	case m.ConversationID == "":
		return fmt.Errorf("message without a conversation ID: %w", ErrInvalid)
	case m.Role == "":
		return fmt.Errorf("message without a role: %w", ErrInvalid)
	case !m.Status.valid():
		return fmt.Errorf("message status %q: %w", m.Status, ErrInvalid)
	case len(m.ToolCalls) > 0 && !json.Valid(m.ToolCalls):
		return fmt.Errorf("message tool calls are not valid JSON: %w", ErrInvalid)
	}
	return nil
}

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

func streamingKey(convID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(convID), seq)
}

// messageBucket returns the conversation's nested message bucket, or nil
// when the conversation does not exist.
func messageBucket(tx *bbolt.Tx, convID string) *bbolt.Bucket {
	return tx.Bucket(bucketMessages).Bucket([]byte(convID))
}

// appendMessage assigns m the next sequence number and stores it.
func appendMessage(tx *bbolt.Tx, m Message) (uint64, error) {
	b := messageBucket(tx, m.ConversationID)
	if b == nil {
		return 0, fmt.Errorf("conversation %s: %w", m.ConversationID, ErrNotFound)
	}
	seq, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	m.Seq = seq
	if err := nameConversation(tx, m); err != nil { // the list's title (conv_list.go)
		return 0, err
	}
	return seq, putMessage(tx, m)
}

// putMessage writes m and keeps the streaming index in step with its status.
func putMessage(tx *bbolt.Tx, m Message) error {
	b := messageBucket(tx, m.ConversationID)
	if b == nil {
		return fmt.Errorf("conversation %s: %w", m.ConversationID, ErrNotFound)
	}
	v, err := json.Marshal(messageRecord{
		Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID,
		Status: m.Status, IsError: m.IsError, CutOff: m.CutOff, Created: m.Created,
	})
	if err != nil {
		return fmt.Errorf("encode message %d: %w", m.Seq, err)
	}
	if err := b.Put(seqKey(m.Seq), v); err != nil {
		return err
	}
	if wb := weightBucket(tx, m.ConversationID); wb != nil { // its weight was of the text before
		if err := wb.Delete(seqKey(m.Seq)); err != nil {
			return err
		}
	}
	idx := tx.Bucket(bucketStreaming)
	if m.Status == StatusStreaming {
		return idx.Put(streamingKey(m.ConversationID, m.Seq), nil)
	}
	return idx.Delete(streamingKey(m.ConversationID, m.Seq))
}

func getMessage(tx *bbolt.Tx, convID string, seq uint64) (Message, bool, error) {
	b := messageBucket(tx, convID)
	if b == nil {
		return Message{}, false, fmt.Errorf("conversation %s: %w", convID, ErrNotFound)
	}
	k := seqKey(seq)
	v := b.Get(k)
	if v == nil {
		return Message{}, false, nil
	}
	m, err := decodeMessage(convID, k, v)
	return m, err == nil, err
}

// decodeMessage copies a stored record out of the transaction's memory
// (json.Unmarshal allocates every string and RawMessage).
func decodeMessage(convID string, k, v []byte) (Message, error) {
	if len(k) != 8 {
		return Message{}, fmt.Errorf("conversation %s: message key of %d bytes: %w", convID, len(k), ErrCorrupt)
	}
	seq := binary.BigEndian.Uint64(k)
	r, err := unmarshalRecord(v) // messages_decode.go
	if err != nil {
		return Message{}, fmt.Errorf("conversation %s: message %d: %w (%w)", convID, seq, ErrCorrupt, err)
	}
	return Message{
		ConversationID: convID, Seq: seq, Role: r.Role, Content: r.Content,
		ToolCalls: r.ToolCalls, ToolCallID: r.ToolCallID, Status: r.Status,
		IsError: r.IsError, CutOff: r.CutOff, Created: r.Created,
	}, nil
}
