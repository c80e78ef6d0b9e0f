package agent

import (
	"context"
	"slices"
	"sync"

	"vouch/internal/panics"
)

// Prefetch does ahead of the first Enter what a run of model begins with
// (SPEC F4, L3; issue 29 items 2 and 4), so that the Enter finds it in
// memory. The interface calls it when it shows the conversation.
//
// It plans the tools a run would offer (the chat's Tools and MoreTools)
// as the run will: their kept plans and token counts are read from the
// CountStore into the client in one read each, and the model's kept
// calibration anchor too (a new session's first Enter read and decoded
// them on its way to the request). What is planned depends on the
// definitions' content alone, so the run plans the same from memory; a
// run that starts meanwhile waits for it rather than reading them beside
// it.
//
// It then reads the conversation as a run would (of a windowed
// transcript, the tail its window can carry), so that a transcript which
// keeps what it read (the stored one does) has it decoded, and it weighs
// the messages a request is likely to carry — each estimated and hashed
// once, their kept counts read — which the client remembers. A transcript that keeps each
// message's weight (WeighedTranscript, weights.go) gives the kept ones
// with the tail, and is given those it lacked to keep. An error is left
// for the run to meet.
func (c *Chat) Prefetch(ctx context.Context, model string) {
	window, _ := c.window(ctx, model)
	var tools sync.WaitGroup // beside the tail's read: they share nothing
	defer tools.Wait()
	tools.Go(func() {
		// A panic planning them is the run's to meet and report.
		defer panics.Recover("the read ahead", "planning the tools", func(*panics.InternalError) {})
		c.prefetchTools(model, window)
	})
	var history []Message
	var weights []MessageWeight
	var err error
	var wt WeighedTranscript
	switch t := c.cfg.Transcript.(type) {
	case WeighedTranscript:
		wt = t
		history, weights, _, err = t.MessagesWeighed(ctx, window)
	case WindowedTranscript:
		history, _, err = t.MessagesFor(ctx, window)
	default:
		history, err = t.Messages(ctx)
	}
	if err != nil {
		return // the run reads it again and reports what fails
	}
	cl := c.cfg.Client
	from := c.weigh(model, history, weights, window)
	if wt != nil {
		if keep := cl.newWeights(model, history, weights, from); len(keep) >= minWeightsToKeep {
			_ = wt.KeepWeights(ctx, keep) // a weight not kept is made again
		}
	}
}

// weigh weighs the messages of history a request is likely to carry (the
// walk back to the window's reach, then their kept counts), with the
// weights kept beside them where there are some, and returns where the
// walk stopped.
func (c *Chat) weigh(model string, history []Message, weights []MessageWeight, window int) (from int) {
	cl := c.cfg.Client
	cl.weighing.Lock() // an Enter meanwhile waits, then finds the messages weighed
	defer cl.weighing.Unlock()
	digests := cl.seedWeights(model, history, weights)
	from, likely := cl.tailStart(model, history, window)
	if digests != nil {
		cl.keyWeights(model, history[likely:], digests[likely:])
	}
	cl.preloadCounts(model, history[likely:])
	return from
}

// prefetchTools plans the chat's tools for model on a window-token window
// as a run's freeze does, for what the planning reads (the plan itself is
// made again by the run, from memory), and reads model's kept anchor.
func (c *Chat) prefetchTools(model string, window int) {
	tools := c.cfg.Tools
	if c.cfg.MoreTools != nil {
		tools = append(slices.Clip(tools), c.cfg.MoreTools()...)
	}
	cl := c.cfg.Client
	cl.planning.Lock()
	defer cl.planning.Unlock()
	if len(tools) > 0 {
		// AsksPerson and labels decide where a tool goes, not what it is
		// planned into: the entries and counts read are the same.
		cl.planFor(model, PlanInput{Tools: tools, Window: window, Fraction: c.cfg.ToolBudget, Label: c.cfg.ToolLabel}, nil)
	}
	cl.keptAnchor(model)
}
