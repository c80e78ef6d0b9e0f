package agent

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// One streamed answer of a run's turn: chunks become events and the draft
// message, tool calls are accumulated by index, and the stream's end is
// classified (done, cut off, cancelled, idle, failed).

// streamState collects one streamed answer.
type streamState struct {
	r              *run
	first, last    time.Time
	usageAt        time.Time // when the usage chunk arrived
	promptEstimate int
	msgs           []openai.ChatCompletionMessage // as sent
	maxTokens      int
	finish         string // the last finish_reason

	text, reasoning strings.Builder
	acc             toolCallAccumulator
	draft           Draft
	finished        bool // a finish_reason arrived
	usage           *Usage
	tps             float64
	err             error // why the stream failed, nil on success
	cancelled       bool
}

func (st *streamState) stream(req openai.ChatCompletionRequest) {
	r := st.r
	var msgsJSON []byte
	if len(req.Messages) > 0 {
		if b, ok := encodeMessages(req.Messages); ok {
			msgsJSON, req.Messages = b, nil // they join the body encoded (message_encode.go)
		}
	}
	ctx, cancel := context.WithCancelCause(withEncoded(r.ctx, r.toolsJSON, msgsJSON))
	defer cancel(nil)
	idle := time.AfterFunc(r.spec.IdleTimeout, func() { cancel(errIdle) })
	defer idle.Stop()

	// Counting and planning are over: the run says its request goes out
	// now (issue 18 item 1). A cancelled run sends nothing.
	r.requests++
	if err := r.emit(RequestSent{Turn: r.requests}); err != nil {
		st.fail(ctx, err, err)
		return
	}
	defer r.c.streamBegan()() // background counting waits (count_yield.go)
	s, err := r.c.oa.CreateChatCompletionStream(ctx, req)
	if err != nil {
		st.fail(ctx, err, r.c.openError(err, r.spec.Model, st.promptEstimate, r.window))
		return
	}
	defer func() { _ = s.Close() }() // closing a response body; nothing to report
	for {
		idle.Reset(r.spec.IdleTimeout)
		raw, err := s.RecvRaw()
		idle.Stop()
		if errors.Is(err, io.EOF) || (err != nil && st.finished && errors.Is(err, errStreamDropped)) {
			return
		}
		if err != nil {
			st.fail(ctx, err, r.c.streamError(err, r.spec.Model, st.promptEstimate, r.window))
			return
		}
		ch, err := decodeChunk(raw)
		if err != nil {
			st.fail(ctx, err, r.c.streamError(err, r.spec.Model, st.promptEstimate, r.window))
			return
		}
		if err := st.apply(ch); err != nil {
			st.fail(ctx, err, r.c.streamError(err, r.spec.Model, st.promptEstimate, r.window))
			return
		}
	}
}

// fail records why the stream ended early: cancellation by the person, the
// idle timeout, or described.
func (st *streamState) fail(ctx context.Context, raw, described error) {
	r := st.r
	switch {
	case r.ctx.Err() != nil:
		st.cancelled = true
	case errors.Is(context.Cause(ctx), errIdle):
		st.err = newError(ErrTimeout, raw,
			"the model server at %s sent nothing for %s; check that it is not overloaded, or choose a smaller model, then try again",
			r.c.baseURL, r.spec.IdleTimeout)
	default:
		st.err = described
	}
}

// apply handles one chunk: deltas become events and draft text, tool calls
// accumulate, usage and timings are kept.
func (st *streamState) apply(ch chunk) error {
	r := st.r
	for _, choice := range ch.Choices {
		d := choice.Delta
		if d.Content != "" || d.ReasoningContent != "" || d.Reasoning != "" || len(d.ToolCalls) > 0 {
			if err := st.beginDraft(); err != nil {
				return err
			}
			now := time.Now()
			if st.first.IsZero() {
				st.first = now
			}
			st.last = now
		}
		for _, reasoning := range []string{d.ReasoningContent, d.Reasoning} {
			if reasoning != "" {
				st.reasoning.WriteString(reasoning)
				if err := r.emit(ReasoningDelta{Text: reasoning}); err != nil {
					return err
				}
			}
		}
		if d.Content != "" {
			st.text.WriteString(d.Content)
			if st.draft != nil {
				st.draft.Write(d.Content)
			}
			if err := r.emit(TextDelta{Text: d.Content}); err != nil {
				return err
			}
		}
		for _, tc := range d.ToolCalls {
			if err := st.acc.add(tc); err != nil {
				return err
			}
		}
		if choice.FinishReason != nil && *choice.FinishReason != "" {
			st.finished = true
			st.finish = *choice.FinishReason
		}
	}
	if ch.Usage != nil {
		st.usage = &Usage{PromptTokens: ch.Usage.PromptTokens, CompletionTokens: ch.Usage.CompletionTokens}
		st.usageAt = time.Now()
	}
	if ch.Timings != nil && ch.Timings.PredictedPerSecond > 0 {
		st.tps = ch.Timings.PredictedPerSecond
	}
	return nil
}

func (st *streamState) beginDraft() error {
	r := st.r
	if st.draft != nil || r.spec.Transcript == nil {
		return nil
	}
	ctx, cancel := r.persistCtx()
	defer cancel()
	d, err := r.spec.Transcript.Begin(ctx, RoleAssistant)
	if err != nil {
		return persistError(err)
	}
	st.draft = d
	return nil
}

// conclude records the assistant message — complete, or partial when the
// stream was cancelled or failed — and publishes usage.
func (st *streamState) conclude() ([]ToolCall, *Done) {
	r := st.r
	msg := Message{Role: RoleAssistant, Content: st.text.String(), Reasoning: st.reasoning.String(), Created: r.spec.Now()}
	for _, p := range st.acc.finish() {
		call := ToolCall{ID: p.id, CorrelationID: newCorrelationID(), WireName: p.name, Arguments: string(p.args)}
		if t := r.byWire[p.name]; t != nil {
			call.Identity = t.def.Identity
		}
		msg.ToolCalls = append(msg.ToolCalls, call)
	}
	failed := st.cancelled || st.err != nil
	msg.Partial = failed
	msg.CutOff = !failed && st.finish == "length"
	if err := st.save(msg); err != nil {
		if st.cancelled {
			return nil, &Done{Reason: StopCancelled, Err: err}
		}
		return nil, &Done{Reason: StopError, Err: err}
	}
	switch {
	case st.cancelled:
		return nil, &Done{Reason: StopCancelled}
	case st.err != nil:
		return nil, &Done{Reason: StopError, Err: st.err}
	}
	if err := r.emit(st.usageEvent()); err != nil {
		return nil, &Done{Reason: StopCancelled}
	}
	return msg.ToolCalls, nil
}

// save persists the assistant message: through its draft if one was begun,
// else (a complete answer that streamed nothing) with Append. A failed
// answer that streamed nothing leaves nothing behind.
func (st *streamState) save(msg Message) error {
	r := st.r
	empty := msg.Content == "" && msg.Reasoning == "" && len(msg.ToolCalls) == 0
	if msg.Partial && empty && st.draft == nil {
		return nil
	}
	if st.draft == nil {
		return r.record(msg)
	}
	ctx, cancel := r.persistCtx()
	defer cancel()
	if err := st.draft.Finish(ctx, msg); err != nil {
		return persistError(err)
	}
	r.history = append(r.history, msg)
	r.appended = append(r.appended, msg)
	return nil
}

func (st *streamState) usageEvent() Usage {
	r := st.r
	u := Usage{ContextWindow: r.window, TokensPerSecond: st.tps, LeftOut: r.leftOut + r.spec.Older,
		PromptEstimate: st.promptEstimate, MaxTokens: st.maxTokens, CutOff: st.finish == "length",
		CountNote: r.countNote, ToolsNote: r.toolsNote}
	if st.usage != nil {
		u.PromptTokens, u.CompletionTokens = st.usage.PromptTokens, st.usage.CompletionTokens
		if r.spec.WindowSource == WindowFromOllamaShow && !r.loadedChecked {
			// The window was a guess: the model was not loaded.
			r.loadedChecked = true
			r.loadedWindow = r.c.learnLoadedWindow(r.ctx, r.spec.Model, r.window)
		}
		if r.loadedWindow > 0 {
			u.ContextWindow = r.loadedWindow
		}
		switch r.c.observePrompt(r.spec.Model, st.msgs, r.toolsJSON, u.PromptTokens, r.fitWindow()) {
		case promptCut:
			u.PromptCut = u.PromptTokens
		case promptImplausible:
			u.CountNote = implausibleNote(u.PromptTokens)
			u.PromptTokens = st.promptEstimate
		}
	} else {
		u.PromptTokens = st.promptEstimate
		u.CompletionTokens = EstimateTokens(st.text.String() + st.reasoning.String())
		u.Estimated = true
	}
	if u.TokensPerSecond == 0 {
		u.TokensPerSecond = generationRate(u.CompletionTokens, st.first, st.last, st.usageAt)
	}
	r.cutOff = u.CutOff
	return u
}
