package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"vouch/agent"
	"vouch/store"
)

// storeTranscript keeps one conversation in the database. It adapts the
// store's records and batched writer to the agent's Transcript. Messages
// returns the conversation's tail (historyTail, transcript_tail.go),
// kept between reads.
type storeTranscript struct {
	db     *store.DB
	convID string
	tail   tailCache
}

var (
	_ agent.WindowedTranscript = (*storeTranscript)(nil)
	_ agent.CutKeeper          = (*storeTranscript)(nil)
)

// LastCut implements agent.CutKeeper from the state database: where a
// request to model last cut this conversation (SPEC A6). An unreadable
// cut is no cut: the next request cuts afresh.
func (t *storeTranscript) LastCut(model string) ([32]byte, bool) {
	var mark [32]byte
	b, ok, err := t.db.PromptCut(t.convID, model)
	if err != nil || !ok || len(b) != len(mark) {
		return mark, false
	}
	copy(mark[:], b)
	return mark, true
}

// KeepCut implements agent.CutKeeper.
func (t *storeTranscript) KeepCut(model string, mark [32]byte) error {
	return t.db.PutPromptCut(t.convID, model, mark[:])
}

func (t *storeTranscript) Messages(ctx context.Context) ([]agent.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, _, err := t.tail.read(t.db, t.convID, 0)
	if err != nil {
		return nil, fmt.Errorf("load conversation: %w", err)
	}
	return out, nil
}

// MessagesFor implements agent.WindowedTranscript: the tail a window
// needs (historyTailFor), kept between reads.
func (t *storeTranscript) MessagesFor(ctx context.Context, window int) ([]agent.Message, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	out, older, err := t.tail.read(t.db, t.convID, window)
	if err != nil {
		return nil, 0, fmt.Errorf("load conversation: %w", err)
	}
	return out, older, nil
}

// MessagesWeighed implements agent.WeighedTranscript: MessagesFor with
// the weights kept beside the messages (store.PutMessageWeights).
func (t *storeTranscript) MessagesWeighed(ctx context.Context, window int) ([]agent.Message, []agent.MessageWeight, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, err
	}
	out, weights, older, err := t.tail.readWeighed(t.db, t.convID, window, true)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("load conversation: %w", err)
	}
	return out, weights, older, nil
}

// KeepWeights implements agent.WeighedTranscript.
func (t *storeTranscript) KeepWeights(ctx context.Context, weights []agent.MessageWeight) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return t.tail.keepWeights(t.db, t.convID, weights)
}

func (t *storeTranscript) Append(ctx context.Context, m agent.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r, err := toRecord(t.convID, m)
	if err != nil {
		return err
	}
	if _, err := t.db.AppendMessage(r); err != nil {
		return fmt.Errorf("save message: %w", err)
	}
	return nil
}

func (t *storeTranscript) Begin(ctx context.Context, role agent.Role) (agent.Draft, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w, err := t.db.NewMessageWriter(t.convID, string(role), store.WriterOptions{})
	if err != nil {
		return nil, fmt.Errorf("start message: %w", err)
	}
	return &storeDraft{w: w, convID: t.convID}, nil
}

// storeDraft is a streamed message written through the store's batching
// writer: one transaction per flush, never one per token.
type storeDraft struct {
	w      *store.MessageWriter
	convID string

	mu       sync.Mutex
	finished bool
}

func (d *storeDraft) Write(text string) { d.w.Write(text) }

func (d *storeDraft) Finish(ctx context.Context, m agent.Message) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.finished {
		return agent.ErrDraftFinished
	}
	d.finished = true
	r, err := toRecord(d.convID, m)
	if err != nil {
		return err
	}
	status := store.StatusComplete
	if m.Partial {
		status = store.StatusPartial
	}
	err = d.w.Finish(status, func(sm *store.Message) {
		sm.Content = r.Content
		sm.ToolCalls = r.ToolCalls
		sm.ToolCallID = r.ToolCallID
		sm.IsError = r.IsError
		sm.CutOff = r.CutOff
	})
	if err != nil {
		return fmt.Errorf("save streamed message: %w", err)
	}
	return nil
}

// wireToolCall is how an assistant's tool calls are kept in a record.
type wireToolCall struct {
	ID            string `json:"id,omitempty"`
	CorrelationID string `json:"correlation_id,omitempty"`
	WireName      string `json:"wire_name"`
	Identity      string `json:"identity,omitempty"`
	Arguments     string `json:"arguments"`
}

func toRecord(convID string, m agent.Message) (store.Message, error) {
	r := store.Message{
		ConversationID: convID,
		Role:           string(m.Role),
		Content:        m.Content,
		ToolCallID:     m.ToolCallID,
		Status:         store.StatusComplete,
		IsError:        m.IsError,
		CutOff:         m.CutOff && !m.Partial,
		Created:        m.Created,
	}
	if m.Partial {
		r.Status = store.StatusPartial
	}
	if len(m.ToolCalls) > 0 {
		calls := make([]wireToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			calls[i] = wireToolCall(c)
		}
		b, err := json.Marshal(calls)
		if err != nil {
			return store.Message{}, fmt.Errorf("encode tool calls: %w", err)
		}
		r.ToolCalls = b
	}
	return r, nil
}

func fromRecord(r store.Message) (agent.Message, error) {
	m := agent.Message{
		Role:       agent.Role(r.Role),
		Content:    r.Content,
		ToolCallID: r.ToolCallID,
		Partial:    r.Status != store.StatusComplete,
		IsError:    r.IsError,
		CutOff:     r.CutOff && r.Status == store.StatusComplete,
		Created:    r.Created,
	}
	if len(r.ToolCalls) > 0 {
		var calls []wireToolCall
		if err := json.Unmarshal(r.ToolCalls, &calls); err != nil {
			return agent.Message{}, fmt.Errorf("decode tool calls of message %d: %w", r.Seq, err)
		}
		m.ToolCalls = make([]agent.ToolCall, len(calls))
		for i, c := range calls {
			m.ToolCalls[i] = agent.ToolCall(c)
		}
	}
	return m, nil
}

// newTranscript returns the transcript of the stored conversation convID.
func newTranscript(db *store.DB, convID string) agent.Transcript {
	return &storeTranscript{db: db, convID: convID}
}

// ConversationOf returns the stored conversation t keeps, "" when t is not
// one of the database's.
func ConversationOf(t agent.Transcript) string {
	if st, ok := t.(*storeTranscript); ok {
		return st.convID
	}
	return ""
}
