package sessiond

import (
	"errors"
	"fmt"
	"io"
)

// Ask sends one control request to the session of stateDir and passes
// each reply to fn until the one with Done. A reply with Error ends it
// with that error (after fn saw it). No session: an error wrapping
// ErrNoSession.
func Ask(stateDir string, req Request, fn func(Reply) error) error {
	c, err := Dial(stateDir)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }()
	if err := WriteJSON(c, KindHello, Hello{Role: RoleControl}); err != nil {
		return fmt.Errorf("greet the session: %w", err)
	}
	if err := WriteJSON(c, KindRequest, req); err != nil {
		return fmt.Errorf("ask the session: %w", err)
	}
	for {
		k, p, err := ReadFrame(c)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the session hung up before it answered; run vouch sessions to see whether it still runs")
			}
			return fmt.Errorf("read the session's answer: %w", err)
		}
		switch k {
		case KindBye:
			var b Bye
			if err := decode(k, p, &b); err != nil {
				return err
			}
			return &ByeError{Bye: b}
		case KindReply:
			var r Reply
			if err := decode(k, p, &r); err != nil {
				return err
			}
			if err := fn(r); err != nil {
				return err
			}
			if r.Error != "" {
				return &ReplyError{Reply: r}
			}
			if r.Done {
				return nil
			}
		}
	}
}

// ByeError is a session's bye in place of an answer.
type ByeError struct{ Bye Bye }

func (e *ByeError) Error() string { return e.Bye.Reason }

// ReplyError is a session's refusal, with the reply that carried it.
type ReplyError struct{ Reply Reply }

func (e *ReplyError) Error() string { return e.Reply.Error }
