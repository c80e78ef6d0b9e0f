package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.etcd.io/bbolt"
)

// Conversation is a transcript's header; its messages live apart (see
// AppendMessage and LastMessages).
type Conversation struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Created time.Time `json:"created"`
	// Updated is the time of the last appended message (or Created).
	Updated time.Time `json:"updated"`
	// Model is the model the latest run used ("" before the first);
	// see SetConversationModel.
	Model string `json:"model,omitempty"`
	// Headless marks a conversation a headless `vouch run` started, which
	// the interface does not open on its own (LatestChatConversation).
	Headless bool `json:"headless,omitempty"`
	// Said is how many of its messages a person calls messages
	// (msgcount.Counts: theirs, and the model's answers in words — not
	// tool calls, their results or notes), kept as messages are written;
	// schema 8 counted those stored before.
	Said int `json:"said,omitempty"`
}

// CreateConversation stores a new, empty conversation. Its ID is a UUIDv7,
// so IDs sort by creation time.
func (db *DB) CreateConversation(title string) (Conversation, error) {
	return db.createConversation(title, false)
}

// CreateHeadlessConversation is CreateConversation for a headless run's
// conversation (Conversation.Headless).
func (db *DB) CreateHeadlessConversation(title string) (Conversation, error) {
	return db.createConversation(title, true)
}

func (db *DB) createConversation(title string, headless bool) (Conversation, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return Conversation{}, fmt.Errorf("create conversation: new ID: %w", err)
	}
	now := db.timestamp()
	c := Conversation{ID: id.String(), Title: title, Created: now, Updated: now, Headless: headless}
	err = db.update(func(tx *bbolt.Tx) error {
		if _, err := tx.Bucket(bucketMessages).CreateBucket([]byte(c.ID)); err != nil {
			return err
		}
		return putConversation(tx, c)
	})
	if err != nil {
		return Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	return c, nil
}

// Conversation returns the conversation with the given ID.
func (db *DB) Conversation(id string) (Conversation, error) {
	var c Conversation
	err := db.view(func(tx *bbolt.Tx) error {
		var err error
		c, err = getConversation(tx, id)
		return err
	})
	if err != nil {
		return Conversation{}, fmt.Errorf("read conversation: %w", err)
	}
	return c, nil
}

// Conversations returns every conversation, most recently updated first.
func (db *DB) Conversations() ([]Conversation, error) {
	var out []Conversation
	err := db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketConvByUpdated).Cursor()
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			conv, err := getConversation(tx, idFromRecencyKey(k))
			if err != nil {
				return err
			}
			out = append(out, conv)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	return out, nil
}

// LatestConversation returns the most recently updated conversation; ok is
// false when there is none. It reads one index entry and one record.
func (db *DB) LatestConversation() (conv Conversation, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		k, _ := tx.Bucket(bucketConvByUpdated).Cursor().Last()
		if k == nil {
			return nil
		}
		conv, err = getConversation(tx, idFromRecencyKey(k))
		ok = err == nil
		return err
	})
	if err != nil {
		return Conversation{}, false, fmt.Errorf("latest conversation: %w", err)
	}
	return conv, ok, nil
}

// LatestChatConversation returns the most recently updated conversation
// the person chatted in — not one a headless run started (issue 28 item
// 17); ok is false when there is none. It walks the recency index back
// past headless ones.
func (db *DB) LatestChatConversation() (conv Conversation, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketConvByUpdated).Cursor()
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			got, err := getConversation(tx, idFromRecencyKey(k))
			if err != nil {
				return err
			}
			if !got.Headless {
				conv, ok = got, true
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return Conversation{}, false, fmt.Errorf("latest conversation: %w", err)
	}
	return conv, ok, nil
}

// recencyKey orders conversations by Updated: big-endian unix ns + ID.
func recencyKey(c Conversation) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(c.Updated.UnixNano())), c.ID...)
}

func idFromRecencyKey(k []byte) string {
	if len(k) < 8 {
		return ""
	}
	return string(k[8:])
}

func putConversation(tx *bbolt.Tx, c Conversation) error {
	v, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode conversation %s: %w", c.ID, err)
	}
	if err := tx.Bucket(bucketConversations).Put([]byte(c.ID), v); err != nil {
		return err
	}
	return tx.Bucket(bucketConvByUpdated).Put(recencyKey(c), nil)
}

func getConversation(tx *bbolt.Tx, id string) (Conversation, error) {
	v := tx.Bucket(bucketConversations).Get([]byte(id))
	if v == nil {
		return Conversation{}, fmt.Errorf("conversation %q: %w", id, ErrNotFound)
	}
	var c Conversation
	if err := json.Unmarshal(v, &c); err != nil {
		return Conversation{}, fmt.Errorf("conversation %s: %w (%w)", id, ErrCorrupt, err)
	}
	return c, nil
}

// touchConversation moves the conversation's Updated time forward to now
// and re-keys it in the recency index; said is added to its count of
// messages (Conversation.Said).
func touchConversation(tx *bbolt.Tx, id string, now time.Time, said int) error {
	c, err := getConversation(tx, id)
	if err != nil {
		return err
	}
	later := now.After(c.Updated)
	if !later && said == 0 {
		return nil
	}
	c.Said = max(c.Said+said, 0)
	if later {
		if err := tx.Bucket(bucketConvByUpdated).Delete(recencyKey(c)); err != nil {
			return err
		}
		c.Updated = now
	}
	return putConversation(tx, c)
}

// countSaid adds said to the conversation's count of messages
// (Conversation.Said) without touching its time; no write for 0.
func countSaid(tx *bbolt.Tx, id string, said int) error {
	return touchConversation(tx, id, time.Time{}, said) // the zero time is never later
}

// timestamp is the database clock's now, in UTC without a monotonic
// reading, so stored and returned times compare equal.
func (db *DB) timestamp() time.Time { return db.now().UTC() }

// ErrAmbiguous means a conversation ID prefix names more than one.
var ErrAmbiguous = errors.New("the prefix names more than one conversation; give more of the ID")

// MinIDPrefix is the shortest conversation ID prefix ResolveConversation
// accepts, as git asks for 4 characters of a commit.
const MinIDPrefix = 4

// ResolveConversation returns the conversation whose ID is id, or, when
// none is, the one whose ID starts with id, as git takes a unique prefix
// (issue 28 item 20) — among the conversations with messages, those the
// list shows: ErrNotFound when none does or id is shorter than
// MinIDPrefix, ErrAmbiguous when more than one does.
func (db *DB) ResolveConversation(id string) (Conversation, error) {
	var c Conversation
	err := db.view(func(tx *bbolt.Tx) error {
		var err error
		if c, err = getConversation(tx, id); err == nil || !errors.Is(err, ErrNotFound) {
			return err
		}
		if len(id) < MinIDPrefix {
			return ErrNotFound
		}
		// Empty conversations (one opened and never written to) are not
		// listed, so they neither match nor make a prefix ambiguous.
		msgs := tx.Bucket(bucketMessages)
		var match []byte
		cur := tx.Bucket(bucketConversations).Cursor()
		for k, _ := cur.Seek([]byte(id)); k != nil && bytes.HasPrefix(k, []byte(id)); k, _ = cur.Next() {
			if b := msgs.Bucket(k); b == nil || b.Sequence() == 0 {
				continue
			}
			if match != nil {
				return ErrAmbiguous
			}
			match = append([]byte(nil), k...)
		}
		if match == nil {
			return ErrNotFound
		}
		k := match
		c, err = getConversation(tx, string(k))
		return err
	})
	if err != nil {
		return Conversation{}, fmt.Errorf("read conversation %q: %w", id, err)
	}
	return c, nil
}
