package app

import (
	"context"

	"vouch/agent"
)

// answeredTranscript is the transcript a chat's runs read: the stored
// conversation without the person's messages that were never answered.
//
// agent.Chat stores the person's message before its run starts, so a run
// refused before inference — the tools that must stay inline exceed the
// budget (SPEC F3), the question alone exceeds the window — or one that
// never reached the model server leaves that message stored with no reply
// after it. It stays stored and shown, and run history keeps the refused
// run with its reason, but the next request does not carry it: the model
// would get two of the person's messages in a row and answer one the
// person has already given up on (issue 17). A message is unanswered when
// the next stored message is the person's again; the newest message, the
// one being sent, is always kept. Writes pass through unchanged.
type answeredTranscript struct{ agent.Transcript }

// Messages implements agent.Transcript.
func (t answeredTranscript) Messages(ctx context.Context) ([]agent.Message, error) {
	msgs, err := t.Transcript.Messages(ctx)
	if err != nil {
		return nil, err
	}
	return withoutUnanswered(msgs), nil
}

// MessagesFor implements agent.WindowedTranscript when the transcript it
// wraps does.
func (t answeredTranscript) MessagesFor(ctx context.Context, window int) ([]agent.Message, int, error) {
	wt, ok := t.Transcript.(agent.WindowedTranscript)
	if !ok {
		msgs, err := t.Messages(ctx)
		return msgs, 0, err
	}
	msgs, older, err := wt.MessagesFor(ctx, window)
	if err != nil {
		return nil, 0, err
	}
	return withoutUnanswered(msgs), older, nil
}

// MessagesWeighed implements agent.WeighedTranscript when the transcript
// it wraps does (else its weights are none).
func (t answeredTranscript) MessagesWeighed(ctx context.Context, window int) ([]agent.Message, []agent.MessageWeight, int, error) {
	wt, ok := t.Transcript.(agent.WeighedTranscript)
	if !ok {
		msgs, older, err := t.MessagesFor(ctx, window)
		return msgs, nil, older, err
	}
	msgs, weights, older, err := wt.MessagesWeighed(ctx, window)
	if err != nil {
		return nil, nil, 0, err
	}
	msgs, weights = dropUnanswered(msgs, weights)
	return msgs, weights, older, nil
}

// KeepWeights implements agent.WeighedTranscript when the transcript it
// wraps does.
func (t answeredTranscript) KeepWeights(ctx context.Context, weights []agent.MessageWeight) error {
	if wt, ok := t.Transcript.(agent.WeighedTranscript); ok {
		return wt.KeepWeights(ctx, weights)
	}
	return nil
}

// LastCut implements agent.CutKeeper when the transcript it wraps does.
func (t answeredTranscript) LastCut(model string) ([32]byte, bool) {
	if k, ok := t.Transcript.(agent.CutKeeper); ok {
		return k.LastCut(model)
	}
	return [32]byte{}, false
}

// KeepCut implements agent.CutKeeper when the transcript it wraps does.
func (t answeredTranscript) KeepCut(model string, mark [32]byte) error {
	if k, ok := t.Transcript.(agent.CutKeeper); ok {
		return k.KeepCut(model, mark)
	}
	return nil
}

// withoutUnanswered leaves out every person's message directly followed
// by another person's message.
func withoutUnanswered(msgs []agent.Message) []agent.Message {
	msgs, _ = dropUnanswered(msgs, nil)
	return msgs
}

// dropUnanswered is withoutUnanswered, leaving out of weights (nil, or
// one a message) those of the messages left out.
func dropUnanswered(msgs []agent.Message, weights []agent.MessageWeight) ([]agent.Message, []agent.MessageWeight) {
	if !anyUnanswered(msgs) {
		return msgs, weights // the common case: no copy of up to 20,000 messages (transcript_tail.go)
	}
	out := make([]agent.Message, 0, len(msgs)) // one allocation: a run may read 20,000 messages (transcript_tail.go)
	var kept []agent.MessageWeight
	if weights != nil {
		kept = make([]agent.MessageWeight, 0, len(weights))
	}
	for i, m := range msgs {
		if unanswered(msgs, i) {
			continue
		}
		out = append(out, m)
		if i < len(weights) {
			kept = append(kept, weights[i])
		}
	}
	return out, kept
}

// anyUnanswered reports whether one of msgs is unanswered.
func anyUnanswered(msgs []agent.Message) bool {
	for i := range msgs {
		if unanswered(msgs, i) {
			return true
		}
	}
	return false
}

// unanswered reports whether msgs[i] is a person's message directly
// followed by another person's message.
func unanswered(msgs []agent.Message, i int) bool {
	return msgs[i].Role == agent.RoleUser && i+1 < len(msgs) && msgs[i+1].Role == agent.RoleUser
}
