package store

import (
	"fmt"

	"go.etcd.io/bbolt"

	"vouch/internal/msgcount"
)

// AppendMessages stores ms, in order, at the end of their conversations in
// one transaction: all of them or none. It serves imports and tests that
// need large transcripts; interactive writes use AppendMessage or a
// MessageWriter.
func (db *DB) AppendMessages(ms []Message) error {
	now := db.timestamp()
	for i := range ms {
		if ms[i].Status == "" {
			ms[i].Status = StatusComplete
		}
		if ms[i].Created.IsZero() {
			ms[i].Created = now
		}
		if err := validateMessage(ms[i]); err != nil {
			return fmt.Errorf("message %d of %d: %w", i+1, len(ms), err)
		}
	}
	err := db.update(func(tx *bbolt.Tx) error {
		touched := map[string]int{} // conversation: messages said (msgcount)
		for i := range ms {
			seq, err := appendMessage(tx, ms[i])
			if err != nil {
				return err
			}
			ms[i].Seq = seq
			touched[ms[i].ConversationID] += msgcount.Of(ms[i].Role, ms[i].Content)
		}
		for id, said := range touched {
			if err := touchConversation(tx, id, now, said); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("append %d messages: %w", len(ms), err)
	}
	return nil
}
