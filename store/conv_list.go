package store

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.etcd.io/bbolt"

	"vouch/internal/msgcount"
)

// The conversation list (SPEC L5) reads headers only. What a row shows is
// kept in the header at write time: the title is the first line of the
// first person's message, set when that message is appended; the model is
// set by SetConversationModel when a run starts; the message count is
// kept in the header as messages are written (Conversation.Said: what a
// person calls messages, msgcount), and the nested bucket's sequence says
// whether it holds any record at all. Listing N
// conversations therefore reads N headers and N bucket sequences, never a
// message — except for a conversation stored before titles were kept,
// whose title is read from its first few messages (titleScan) and not
// written back: listing stays read-only.

// titleMax is how many runes of the first line a title keeps.
const titleMax = 120

// titleScan bounds the messages read to find an old conversation's title.
const titleScan = 8

// ConversationSummary is one row of the conversation list: the header and
// how many messages the conversation holds, as a person counts them
// (Conversation.Said).
type ConversationSummary struct {
	Conversation
	Messages int
}

// TitleOf is the title a conversation gets from a person's message: its
// first non-blank line, trimmed, at most titleMax runes. The text is
// stored as written; every output path neutralises it.
func TitleOf(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > titleMax {
			r := []rune(line)
			line = string(r[:titleMax])
		}
		return line
	}
	return ""
}

// ConversationSummaries returns up to limit conversations (limit <= 0: all),
// most recently updated first, skipping those with no message unless their
// ID is keep (the conversation on screen, which may still be empty).
func (db *DB) ConversationSummaries(limit int, keep string) ([]ConversationSummary, error) {
	var out []ConversationSummary
	err := db.view(func(tx *bbolt.Tx) error {
		msgs := tx.Bucket(bucketMessages)
		c := tx.Bucket(bucketConvByUpdated).Cursor()
		for k, _ := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Prev() {
			conv, err := getConversation(tx, idFromRecencyKey(k))
			if err != nil {
				return err
			}
			n := 0
			b := msgs.Bucket([]byte(conv.ID))
			if b != nil {
				n = int(b.Sequence())
			}
			if n == 0 && conv.ID != keep {
				continue
			}
			if conv.Title == "" && b != nil {
				conv.Title = scanTitle(b)
			}
			out = append(out, ConversationSummary{Conversation: conv, Messages: conv.Said})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	return out, nil
}

// scanTitle finds the title of a conversation stored before titles were
// kept: the first person's message among its first titleScan.
func scanTitle(b *bbolt.Bucket) string {
	c := b.Cursor()
	i := 0
	for k, v := c.First(); k != nil && i < titleScan; k, v = c.Next() {
		i++
		m, err := decodeMessage("", k, v)
		if err == nil && m.Role == "user" {
			return TitleOf(m.Content)
		}
	}
	return ""
}

// nameConversation gives the conversation of m its title when m is the
// first person's message; called in the transaction that appends m.
func nameConversation(tx *bbolt.Tx, m Message) error {
	if m.Role != "user" {
		return nil
	}
	c, err := getConversation(tx, m.ConversationID)
	if err != nil || c.Title != "" {
		return err
	}
	if c.Title = TitleOf(m.Content); c.Title == "" {
		return nil
	}
	return putConversation(tx, c)
}

// SetConversationModel records the model a conversation's latest run used,
// for the conversation list. It writes nothing when the model is already
// the recorded one.
func (db *DB) SetConversationModel(id, model string) error {
	c, err := db.Conversation(id)
	if err != nil {
		return fmt.Errorf("record the conversation's model: %w", err)
	}
	if c.Model == model {
		return nil // no write, no fsync: the common case of every send
	}
	err = db.update(func(tx *bbolt.Tx) error {
		c, err := getConversation(tx, id)
		if err != nil || c.Model == model {
			return err
		}
		c.Model = model
		return putConversation(tx, c)
	})
	if err != nil {
		return fmt.Errorf("record the conversation's model: %w", err)
	}
	return nil
}

// DeleteConversation removes a conversation with its messages, its
// entries in the streaming index and its tool selection, in one
// transaction. Run history keeps its own records of the runs made in it.
func (db *DB) DeleteConversation(id string) error {
	if id == "" || strings.ContainsRune(id, 0) {
		return fmt.Errorf("delete conversation %q: %w", id, ErrInvalid)
	}
	err := db.update(func(tx *bbolt.Tx) error {
		c, err := getConversation(tx, id)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketConvByUpdated).Delete(recencyKey(c)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketConversations).Delete([]byte(id)); err != nil {
			return err
		}
		if messageBucket(tx, id) != nil {
			if err := tx.Bucket(bucketMessages).DeleteBucket([]byte(id)); err != nil {
				return err
			}
		}
		if err := deletePrefix(tx.Bucket(bucketStreaming), []byte(id), 8); err != nil {
			return err
		}
		if err := deleteWeights(tx, id); err != nil {
			return err
		}
		if b := tx.Bucket(bucketTokenCounts); b != nil { // where it was cut (prompt_cuts.go)
			if err := deletePrefix(b, promptCutKey(id, ""), -1); err != nil {
				return err
			}
		}
		return deletePrefix(tx.Bucket(bucketToolsOff), []byte(id+"\x00"), -1)
	})
	if err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	return nil
}

// deletePrefix deletes the keys of b that start with prefix; with rest >= 0
// only keys exactly rest bytes longer than prefix (the streaming index's
// key is the ID and an 8-byte sequence, and one ID may prefix another).
func deletePrefix(b *bbolt.Bucket, prefix []byte, rest int) error {
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if rest < 0 || len(k) == len(prefix)+rest {
			keys = append(keys, append([]byte(nil), k...))
		}
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// MarkChatted clears a conversation's Headless mark: the person reopened
// it in the interface, so it is theirs now, and the interface opens it
// again (LatestChatConversation). No write when it has no mark.
func (db *DB) MarkChatted(id string) error {
	c, err := db.Conversation(id)
	if err != nil || !c.Headless {
		return err
	}
	err = db.update(func(tx *bbolt.Tx) error {
		c, err := getConversation(tx, id)
		if err != nil || !c.Headless {
			return err
		}
		c.Headless = false
		return putConversation(tx, c)
	})
	if err != nil {
		return fmt.Errorf("mark the conversation as yours: %w", err)
	}
	return nil
}

// countConversations is schema 8: every stored conversation gets its
// count of messages (Conversation.Said), from its records, as
// AppendMessage and UpdateMessage keep it from now on.
func countConversations(tx *bbolt.Tx) error {
	msgs := tx.Bucket(bucketMessages)
	convs := tx.Bucket(bucketConversations)
	var ids []string
	if err := convs.ForEach(func(k, _ []byte) error {
		ids = append(ids, string(k))
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		c, err := getConversation(tx, id)
		if err != nil {
			return err
		}
		c.Said = 0
		if b := msgs.Bucket([]byte(id)); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				m, err := decodeMessage(id, k, v)
				if err != nil {
					return err
				}
				c.Said += msgcount.Of(m.Role, m.Content)
				return nil
			})
			if err != nil {
				return err
			}
		}
		if err := putConversation(tx, c); err != nil {
			return err
		}
	}
	return nil
}
